"""Churn prediction package."""
