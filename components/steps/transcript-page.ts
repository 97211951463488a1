// Steps per transcript request. Its own module without "use client": the page (a server component) computes the
// deep-linked step's page with it, and a constant imported from a client module is a client reference there, not a number.
export const TRANSCRIPT_PAGE = 50;
