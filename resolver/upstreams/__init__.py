"""One client per upstream knowledge-network service, and the one place their errors are
translated (`client.py`). Each service module says what it asks for and reads the answer into
`models.py`; nothing here knows about HTTP requests coming in or about LLMs.

May import: `resolver.core`.
"""
