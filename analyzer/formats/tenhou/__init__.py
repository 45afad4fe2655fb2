"""Tenhou's logs: mjlog XML and tenhou.net/6 JSON, read and written, with Tenhou's lobby rules and yaku names."""
