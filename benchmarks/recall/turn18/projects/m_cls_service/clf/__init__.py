"""Ticket-routing text classifier."""
