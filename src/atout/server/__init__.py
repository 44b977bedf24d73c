"""The online server: tables, their protocol, their store (docs/protocol.md)."""
