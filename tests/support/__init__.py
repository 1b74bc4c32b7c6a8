"""Test helpers: a loopback server that replays byte-exact SSE transcripts with their original chunking."""
