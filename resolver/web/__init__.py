"""The HTTP edge: the application factory (it opens the service graph of
`resolver/services.py` in a `cleanup_ctx`), the routes table (feeding the router and
/openapi.json), the one request middleware, reading bodies into models and rendering responses
from theirs, and the typed app keys — the web edge's own (`appkeys.py`: settings, metrics,
lifecycle, OpenAPI, trace id) apart from the graph's (`servicekeys.py`).

May import: every other package of resolver.
"""
