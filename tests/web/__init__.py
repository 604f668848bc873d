"""Tests of `resolver/web/`: the HTTP surface, negotiation (TOON, Accept-Language), the error
shape.
"""
