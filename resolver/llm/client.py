"""The LLM client: one per process, the one entry point of the LLM stage (`complete`).

    complete(messages, model=…)
    ├── the result cache, then single-flight: identical calls share one (`cache.py`); the
    │   key holds the model asked for
    ├── primary (with the request's model, when one was chosen), or the fallback — with its
    │   own model — while the primary's circuit is open (`fallback.py`)
    ├── the response format the endpoint+model takes: `json_schema`, or `json_object` once it
    │   refused `json_schema` (a 400 naming response_format: asked again at once, remembered)
    ├── transport retries within the request deadline (`retrying.py`)
    └── one attempt: a limiter slot, the request the SDK shapes, our bounded POST (`endpoint.py`)

Each answer's usage (cached prompt tokens included) is priced by `RESOLVER_LLM_PRICES`.

Each call is counted (`LLMObserver`: the Prometheus metrics), logged once (`llm.call`) and
traced as a GenAI CLIENT span when tracing is on. openai's exceptions never leave this package.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any, Protocol

import orjson
import structlog

from resolver.core.errors import LLMError, LLMTimeout, LLMUnavailable, Overloaded
from resolver.core.lifecycle import Lifecycle
from resolver.core.prices import call_cost
from resolver.core.settings import Settings
from resolver.llm.cache import CacheBackend, LruBackend, SingleFlight, request_key
from resolver.llm.circuit import Circuit, State
from resolver.llm.completion import Completion, Message, Purpose, from_cache
from resolver.llm.endpoint import Endpoint
from resolver.llm.fallback import with_fallback
from resolver.llm.limiter import CallLimiter
from resolver.llm.retrying import call_with_retries
from resolver.llm.spans import call_span, describe_call

log = structlog.get_logger("resolver.llm")
_JSON_OBJECT = {"type": "json_object"}


class LLMObserver(Protocol):
    """What the client reports (the Prometheus metrics implement it)."""

    def observe_llm_attempt(self, outcome: str, seconds: float) -> None:
        """One attempt ended with `outcome`."""

    def observe_llm_call(
        self,
        endpoint: str,
        model: str,
        *,
        outcome: str,
        purpose: str,
        attempts: int,
        usage: dict[str, int] | None,
        cost: float | None = None,
    ) -> None:
        """One call ended (after `attempts` attempts; 0 when served by the cache), with what
        it cost when a price is known."""

    def observe_llm_format_fallback(self, endpoint: str, model: str) -> None:
        """`endpoint` refused `json_schema` for `model`: from now on it is sent `json_object`."""

    def observe_llm_cache(self, result: str) -> None:
        """A cache look-up: `hit`, `miss` or `shared` (joined a call in flight)."""

    def observe_llm_circuit(self, endpoint: str, state: str) -> None:
        """The circuit of `endpoint` moved to `state`."""


class LLMClient:
    """One per process: the endpoints, the shared limiter, the cache and the circuit."""

    def __init__(
        self,
        settings: Settings,
        limiter: CallLimiter,
        observer: LLMObserver | None = None,
        lifecycle: Lifecycle | None = None,
        cache: CacheBackend | None = None,
    ) -> None:
        if settings.llm_base_url is None:
            raise ValueError("the LLM client needs RESOLVER_LLM_BASE_URL")
        self._settings = settings
        self._limiter = limiter
        self._lifecycle = lifecycle or Lifecycle()
        self._observer = observer
        self.primary = Endpoint(
            "primary",
            settings.llm_base_url,
            settings.llm_model,
            settings.llm_api_key.get_secret_value(),
            settings,
        )
        self.fallback: Endpoint | None = None
        self.circuit: Circuit | None = None
        if settings.llm_fallback_base_url is not None:
            self.fallback = Endpoint(
                "fallback",
                settings.llm_fallback_base_url,
                settings.llm_fallback_model or settings.llm_model,
                settings.llm_fallback_api_key.get_secret_value(),
                settings,
            )
            self.circuit = Circuit(
                "primary",
                failures=settings.llm_circuit_failures,
                cool_down_s=settings.llm_circuit_cool_down_s,
                on_change=self._circuit_moved,
            )
        self._ttl_s = settings.llm_cache_ttl_s
        self._cache: CacheBackend | None = None
        if self._ttl_s > 0:
            self._cache = cache or LruBackend(max_entries=settings.llm_cache_max_entries)
        self._flights = SingleFlight()
        self._prices = settings.prices()
        # (endpoint, model) pairs that refused `json_schema`: sent `json_object` for the
        # process's life (one log line and one count when each is learnt).
        self.schema_refused: set[tuple[str, str]] = set()

    @property
    def limiter(self) -> CallLimiter:
        """The limiter every call start goes through."""
        return self._limiter

    @property
    def draining(self) -> bool:
        """Whether the process is shutting down (no new retries or repair rounds)."""
        return self._lifecycle.draining

    @property
    def cache(self) -> CacheBackend | None:
        """The result cache, or None when `RESOLVER_LLM_CACHE_TTL_S=0`."""
        return self._cache

    def state(self) -> dict[str, Any]:
        """What `/readyz` shows of the endpoints and the circuit."""
        shown: dict[str, Any] = {"model": self.primary.model}
        if self.fallback is not None and self.circuit is not None:
            shown["circuit"] = self.circuit.snapshot()
            shown["fallback_model"] = self.fallback.model
        return shown

    async def aclose(self) -> None:
        """Close the connection pools."""
        await self.primary.aclose()
        if self.fallback is not None:
            await self.fallback.aclose()

    async def complete(
        self,
        messages: Sequence[Message],
        *,
        deadline: float,
        response_format: dict[str, Any] | None,
        purpose: Purpose = "first",
        model: str | None = None,
    ) -> Completion:
        """One chat completion: from the cache, shared with an identical call in flight, or
        asked of the primary (the fallback while the primary's circuit is open).

        `model` is the request's choice (`llm_model`, already checked against
        `RESOLVER_LLM_ALLOWED_MODELS`): the primary is asked for it, and it is part of the
        cache key; the fallback keeps its own model.
        """
        body: dict[str, Any] = {
            "messages": self._placed(messages),
            "temperature": 0,
            "max_tokens": self._settings.llm_max_tokens,
        }
        if response_format is not None:
            body["response_format"] = self._dialect(response_format)
        if self._cache is None:
            return await self._call(body, deadline, purpose, model)
        key = request_key(model or self.primary.model, body)
        completion = await self._cached(key)
        if completion is not None:
            self._report_cache("hit")
            # Labels from configuration, never from the cached value: a value written by
            # anyone with access to Redis must not mint new metric series.
            endpoint = self._endpoint_named(completion.endpoint)
            self._report_call(
                endpoint.name,
                model if model is not None and endpoint is self.primary else endpoint.model,
                outcome="cached",
                purpose=purpose,
                completion=completion,
            )
            return completion
        self._report_cache("shared" if key in self._flights else "miss")
        fresh, shared = await self._flights.run(
            key,
            lambda: self._call_and_store(key, body, deadline, purpose, model),
            deadline=deadline,
            expired=(LLMTimeout,),
        )
        return replace(fresh, cached=shared) if shared else fresh

    async def _cached(self, key: str) -> Completion | None:
        """The cached completion of `key`; a value that cannot be read is a miss, deleted."""
        assert self._cache is not None  # noqa: S101 - only called with a cache
        raw = await self._cache.get(key)
        if raw is None:
            return None
        completion = from_cache(raw, key, max_content_bytes=self._settings.llm_max_response_bytes)
        if completion is None:
            log.warning("llm.cache_unreadable", key=key[:16], size=len(raw))
            await self._cache.delete(key)
        return completion

    def _endpoint_named(self, name: str) -> Endpoint:
        """The configured endpoint a cached answer names (the primary unless the fallback)."""
        if name == "fallback" and self.fallback is not None:
            return self.fallback
        return self.primary

    async def forget(self, completion: Completion) -> None:
        """Drop an answer the rules rejected, so the next identical request asks again."""
        if self._cache is not None and completion.key is not None:
            await self._cache.delete(completion.key)

    def _placed(self, messages: Sequence[Message]) -> list[Message]:
        """The messages, the system prompt folded into the first user message when the model
        has no system role (`RESOLVER_LLM_SYSTEM_PROMPT=user`)."""
        placed = list(messages)
        if (
            self._settings.llm_system_prompt == "user"
            and len(placed) > 1
            and placed[0]["role"] == "system"
            and placed[1]["role"] == "user"
        ):
            first = {"role": "user", "content": f"{placed[0]['content']}\n\n{placed[1]['content']}"}
            placed = [first, *placed[2:]]
        return placed

    def _dialect(self, response_format: dict[str, Any]) -> dict[str, Any]:
        """The response format as the provider takes it (`RESOLVER_LLM_JSON_SCHEMA_STYLE`)."""
        if (
            self._settings.llm_json_schema_style == "json_object"
            and response_format.get("type") == "json_schema"
        ):
            return {"type": "json_object", "schema": response_format["json_schema"]["schema"]}
        return response_format

    async def _call_and_store(
        self, key: str, body: dict[str, Any], deadline: float, purpose: Purpose, model: str | None
    ) -> Completion:
        completion = replace(await self._call(body, deadline, purpose, model), key=key)
        if self._cache is not None and completion.content is not None:
            await self._cache.set(key, completion.to_cache(), self._ttl_s)
        return completion

    async def _call(
        self, body: dict[str, Any], deadline: float, purpose: Purpose, model: str | None
    ) -> Completion:
        """The primary (asked for `model` when given), unless its circuit is open; the
        fallback, with its own model, when the primary fails."""

        async def call(endpoint: Endpoint, circuit: Circuit | None) -> Completion:
            asked = model if model is not None and endpoint is self.primary else endpoint.model
            return await self._call_endpoint(
                endpoint, asked, body, deadline=deadline, purpose=purpose, circuit=circuit
            )

        return await with_fallback(
            call,
            self.primary,
            self.fallback,
            self.circuit,
            deadline=deadline,
            draining=lambda: self.draining,
        )

    async def _call_endpoint(
        self,
        endpoint: Endpoint,
        model: str,
        body: dict[str, Any],
        *,
        deadline: float,
        purpose: Purpose,
        circuit: Circuit | None,
    ) -> Completion:
        """One call to one endpoint for one model, retried on transport failures within the
        deadline, asked again with `json_object` if it refuses `json_schema`; counted, logged,
        traced and priced."""
        with call_span(endpoint, model, body, purpose) as span:
            try:
                completion = await self._asked(endpoint, model, body, deadline, circuit)
            except LLMError as exc:
                attempts = exc.details.get("attempts", 0) if isinstance(exc.details, dict) else 0
                self._report_call(
                    endpoint.name,
                    model,
                    outcome=exc.code.lower(),
                    purpose=purpose,
                    completion=None,
                    attempts=attempts,
                )
                if span is not None:
                    span.set_attribute("error.type", exc.code)
                raise
            except Overloaded:
                self._report_call(
                    endpoint.name,
                    model,
                    outcome="overloaded",
                    purpose=purpose,
                    completion=None,
                )
                raise
            cost = call_cost(self._prices, completion.usage, model, completion.model)
            completion = replace(completion, cost=cost)
            self._report_call(
                endpoint.name, model, outcome="ok", purpose=purpose, completion=completion
            )
            if span is not None:
                describe_call(span, completion)
            return completion

    async def _asked(
        self,
        endpoint: Endpoint,
        model: str,
        body: dict[str, Any],
        deadline: float,
        circuit: Circuit | None,
    ) -> Completion:
        """The completion, in the response format this endpoint+model takes: a 400 naming
        the format to a structured-output request is asked again at once with `json_object`
        (the rules check its answer as any other), and remembered for the process's life."""
        refused = (endpoint.name, model)
        structured = body.get("response_format") not in (None, _JSON_OBJECT)
        sent = body
        if structured and refused in self.schema_refused:
            sent = {**body, "response_format": _JSON_OBJECT}
        try:
            return await self._retried(endpoint, model, sent, deadline, circuit)
        except LLMUnavailable as exc:
            if not (sent is body and structured and _format_refused(exc)):
                raise
        completion = await self._retried(
            endpoint, model, {**body, "response_format": _JSON_OBJECT}, deadline, circuit
        )
        # Learnt only once `json_object` was answered: a 400 that merely echoed the request's
        # words, refused again, says nothing about the format. Concurrent calls may all learn
        # it; the first says so.
        if refused in self.schema_refused:
            return completion
        self.schema_refused.add(refused)
        log.warning(
            "llm.format_fallback",
            endpoint=endpoint.name,
            model=model,
            refused=body["response_format"].get("type"),
            now="json_object",
        )
        if self._observer is not None:
            self._observer.observe_llm_format_fallback(endpoint.name, model)
        return completion

    async def _retried(
        self,
        endpoint: Endpoint,
        model: str,
        body: dict[str, Any],
        deadline: float,
        circuit: Circuit | None,
    ) -> Completion:
        payload = orjson.dumps({"model": model, **body})
        return await call_with_retries(
            endpoint,
            payload,
            deadline,
            limiter=self._limiter,
            max_attempts=self._settings.llm_max_attempts,
            retry_after_cap_s=self._settings.llm_retry_after_cap_s,
            draining=lambda: self._lifecycle.draining,
            circuit=circuit,
            observe=self._observe_attempt,
        )

    def _observe_attempt(self, outcome: str, seconds: float) -> None:
        if self._observer is not None:
            self._observer.observe_llm_attempt(outcome, seconds)

    def _report_call(
        self,
        endpoint: str,
        model: str,
        *,
        outcome: str,
        purpose: str,
        completion: Completion | None,
        attempts: int = 0,
    ) -> None:
        tried = completion.attempts if completion is not None else attempts
        usage = completion.usage if completion is not None and completion.usage else {}
        cost = completion.cost if completion is not None and outcome != "cached" else None
        if self._observer is not None:
            self._observer.observe_llm_call(
                endpoint,
                model,
                outcome=outcome,
                purpose=purpose,
                attempts=tried,
                usage=None if outcome == "cached" else usage,
                cost=cost,
            )
        log.info(
            "llm.call",
            endpoint=endpoint,
            model=model,
            purpose=purpose,
            outcome=outcome,
            attempts=tried,
            latency_ms=completion.latency_ms if completion is not None else None,
            finish_reason=completion.finish_reason if completion is not None else None,
            prompt_tokens=usage.get("prompt_tokens"),
            cached_tokens=usage.get("cached_tokens"),
            completion_tokens=usage.get("completion_tokens"),
            total_tokens=usage.get("total_tokens"),
            cost=cost,
        )

    def _report_cache(self, result: str) -> None:
        if self._observer is not None:
            self._observer.observe_llm_cache(result)

    def _circuit_moved(self, endpoint: str, state: State) -> None:
        if self._observer is not None:
            self._observer.observe_llm_circuit(endpoint, state)


def _format_refused(exc: LLMUnavailable) -> bool:
    """Whether a failed call ended on a 400 that names the response format."""
    return isinstance(exc.details, dict) and exc.details.get("format_refused") is True
