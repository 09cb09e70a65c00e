//! bots (placeholder until its issue lands).
