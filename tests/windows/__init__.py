"""Tests of `resolver/windows/`: `POST /v1/time-window` (SPEC §9) over HTTP, its answer and its
422, and the ask; the four faces on the gold sets are in tests/system/test_time_window_faces.py."""
