"""In and out: JSON, game records, the integer action encoding, score files."""
