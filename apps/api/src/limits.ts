// The bounds a reverse proxy in front of the API must let through: the deploy files' proxy settings
// are checked against these, so a proxy never cuts off what the API itself allows.
export { MAX_BODY_BYTES } from './app.ts';
export { MAX_DISCARD_BYTES } from './http/body-limit.ts';
export { MAX_WAIT_SECONDS } from './http/jobs.ts';
export { HEARTBEAT_MS } from './http/live-events.ts';
