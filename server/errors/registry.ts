/**
 * The one registry of error codes: machine code → HTTP status, a numeric code
 * (used where the spec wants numbers: the chat channel) and the default sentence.
 * docs/ERRORS.md lists exactly these rows; a test keeps the two equal.
 */
// The two sentences too long for one row of the table below.
const ONE_TIME_PASSWORD_USED = 'This one-time password has already been used to sign in; run npm run reset-admin again on the server for a new one.';
const PASSWORD_CHANGE_REQUIRED = 'You signed in with a one-time password: choose your own password first (PUT /api/v1/me/password), then try again.';

export const errorRegistry = {
  invalid_json: { status: 400, number: 1001, message: 'The request body is not valid JSON.' },
  validation_failed: { status: 400, number: 1002, message: 'The request does not match the expected shape.' },
  missing_sender_id: { status: 400, number: 1003, message: 'sender.id is required; the message was not stored.' },
  invalid_message: { status: 400, number: 1004, message: 'The message breaks a rule of the chat channel.' },
  outbound_url_refused: { status: 400, number: 1005, message: 'That URL points to a private or loopback address, which outbound requests may not target.' },
  unauthorized: { status: 401, number: 1010, message: 'Sign in first: send a valid token as "Authorization: Bearer <token>".' },
  invalid_credentials: { status: 401, number: 1011, message: 'The e-mail or password is wrong.' },
  one_time_password_used: { status: 401, number: 1012, message: ONE_TIME_PASSWORD_USED },
  forbidden: { status: 403, number: 1020, message: 'Only an administrator may do this.' },
  csrf_failed: { status: 403, number: 1021, message: 'Cookie-authenticated requests must carry the X-CSRF-Token header.' },
  origin_not_allowed: { status: 403, number: 1022, message: 'This chat widget is not enabled on this site.' },
  password_change_required: { status: 403, number: 1024, message: PASSWORD_CHANGE_REQUIRED },
  wrong_password: { status: 403, number: 1023, message: 'The current password is wrong; type it again (or ask an administrator to set a new one).' },
  not_found: { status: 404, number: 1030, message: 'Nothing exists at this address.' },
  route_not_found: { status: 404, number: 1031, message: 'No such route.' },
  link_invalid: { status: 404, number: 1032, message: 'This link is not valid (it was already used, or a newer one replaced it); ask for a new one.' },
  email_taken: { status: 409, number: 1040, message: 'An agent with this e-mail already exists.' },
  chat_already_accepted: { status: 409, number: 1041, message: 'Another agent has already accepted this chat.' },
  chat_finished: { status: 409, number: 1042, message: 'This chat is finished.' },
  conflict: { status: 409, number: 1043, message: 'The request conflicts with the current state.' },
  call_finished: { status: 409, number: 1044, message: 'This call has already ended; its status can no longer change.' },
  shortcut_taken: { status: 409, number: 1045, message: 'Another canned response of this account already has this shortcut.' },
  link_expired: { status: 410, number: 1046, message: 'This link has expired; ask for a new one.' },
  payload_too_large: { status: 413, number: 1050, message: 'The request body is too large.' },
  upload_quota_exceeded: { status: 413, number: 1052, message: "The account's storage for uploaded files is full; the file was not stored." },
  unsupported_media_type: { status: 415, number: 1051, message: 'This content type is not accepted here.' },
  too_many_requests: { status: 429, number: 1060, message: 'Too many requests; wait a moment and try again.' },
  internal_error: { status: 500, number: 1090, message: 'Something went wrong on our side; it has been logged.' },
  service_unavailable: { status: 503, number: 1091, message: 'The service is temporarily unavailable; try again shortly.' },
  storage_full: { status: 503, number: 1096, message: "The server's disk is full; nothing was stored. Try again later." },
} as const satisfies Record<string, { status: number; number: number; message: string }>;

export type ErrorCode = keyof typeof errorRegistry;
