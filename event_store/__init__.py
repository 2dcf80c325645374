"""Persistence: MessagePack codec, store factory (SQLite default, PostgreSQL for
scale), the per-game hash chain, the games index, export/import."""
