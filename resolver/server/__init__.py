"""Serving the application: binding the listeners, the guard against slow and excess clients,
one serving process with its drain on SIGTERM, and the supervisor of `--workers N` processes.

May import: `resolver.core`, `resolver.web`.
"""
