"""Everything that talks to, or reads from, the OpenAI-compatible LLM."""
