"""Tests of `resolver/upstreams/`: the upstream routes and what travels to each service."""
