"""The static half: parse, the rules, findings, fixes and reports. Never imports torch."""
