"""What moderators do, one function each, each in one transaction that also
writes its audit row (`moderation.audit.record_action`):

- `games`: abort a game, adjudicate it, give a seat to someone else, hide a
  chat message (through gameplay's primitives, `gameplay.services.interventions`);
- `people`: players' reports, and suspending and muting accounts.
"""
