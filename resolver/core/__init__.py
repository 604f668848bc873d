"""The core every other package stands on: settings, the error tree, JSON, logging, metrics,
the async TTL cache and the id rule.

May import: the standard library, third-party libraries and `rules`; nothing else of resolver.
"""
