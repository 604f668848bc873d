"""The core every other package stands on: settings, the error tree, the one error body and
failure policy of every face (`failures.py`), JSON, logging, metrics, the async TTL cache and
the id rule.

May import: the standard library, third-party libraries and `resolver.timeexpr` (a library of
its own: the one `Language`); nothing else of resolver, nor the validators (rules/).
"""
