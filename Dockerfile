# syntax=docker/dockerfile:1
# resolver: a slim, non-root image whose entry point is `resolver serve`.
# Build: docker build -t resolver:0.1.0 .   Run: docker run -p 8080:8080 resolver:0.1.0
# Linted by hadolint in tests/system/test_deploy.py.

# Stage 1: wheels for resolver and every dependency (compilers stay in this stage).
FROM python:3.11-slim-bookworm AS wheels
WORKDIR /src
COPY pyproject.toml README.md ./
COPY resolver ./resolver
COPY rules ./rules
COPY prompts ./prompts
RUN pip wheel --no-cache-dir --wheel-dir /wheels .

# Stage 2: the runtime, installed from those wheels only.
FROM python:3.11-slim-bookworm
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    RESOLVER_HOST=0.0.0.0 \
    RESOLVER_PORT=8080
RUN --mount=type=bind,from=wheels,source=/wheels,target=/wheels \
    pip install --no-cache-dir --no-index --find-links=/wheels resolver==0.1.0 \
    && useradd --system --uid 10001 --no-create-home --shell /usr/sbin/nologin resolver
USER 10001:10001
EXPOSE 8080
# Kubernetes probes /healthz and /readyz itself (deploy/deployment.yaml); plain Docker uses this.
HEALTHCHECK --interval=10s --timeout=2s --start-period=10s --retries=3 \
    CMD ["python", "-c", "import urllib.request as u; u.urlopen('http://127.0.0.1:8080/healthz', timeout=2)"]
ENTRYPOINT ["resolver", "serve"]
