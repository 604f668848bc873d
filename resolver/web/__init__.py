"""The HTTP edge: the application factory, the routes table (feeding the router and
/openapi.json), the one request middleware, reading bodies into models and rendering
responses from theirs, and the typed app keys.

May import: every other package of resolver.
"""
