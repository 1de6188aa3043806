/**
 * Every bound of the gateway, in one place: what it reads, keeps, queues and waits for has a limit (bytes or a
 * count) and an expiry. Each is named and says why it is what it is; the README lists them. A bound a caller
 * meets is answered in words (413, 429 with Retry-After, 503), never by growing.
 */

// ---- Connections (a caller holding sockets open must not starve the others) ----

/**
 * Open connections at once, in all. Below the descriptors a process usually has (`ulimit -n`, 20,000 here and
 * often 1,024 elsewhere: raise it above this plus a few hundred for Redis, files and upstream sockets), so that
 * reading the tokens file or reaching Redis never fails for want of a descriptor.
 */
export const MAX_CONNECTIONS = 4_096;
/**
 * Open connections from one address: one machine cannot take every slot. A reverse proxy in front is one
 * address: its own pool (keep-alive) stays far below this; a proxy needing more says the team needs more processes.
 */
export const MAX_CONNECTIONS_PER_ADDRESS = 1_024;
/** A request whose headers are not complete within this is dropped (half-open and slow-header sockets). */
export const HEADERS_TIMEOUT_MS = 10_000;
/** How often Node checks the headers and request time-outs (its default, 30 s, would let a socket live 40 s). */
export const CONNECTIONS_CHECK_MS = 1_000;
/** A whole request, body included; above the longest hold (HOLD_MS) so that a held caller gets its 503. */
export const REQUEST_TIMEOUT_MS = 40_000;
/** A socket with nothing happening on it for this long is closed (fastify's connectionTimeout). */
export const IDLE_SOCKET_TIMEOUT_MS = 45_000;
/** An idle keep-alive socket is kept this long between requests (Node's default). */
export const KEEP_ALIVE_TIMEOUT_MS = 5_000;
/** Requests on one socket before it is closed: a keep-alive socket cannot be held for ever. */
export const MAX_REQUESTS_PER_SOCKET = 1_000;
/** Request line and headers, in bytes: a bearer sign-in token is a few KB; Node's own default is 16 KB. */
export const MAX_HEADER_BYTES = 16_384;
/** The account API's bodies (a key as JSON): nothing it takes is longer. */
export const MAX_BODY_BYTES = 1_024;

// ---- What a request may ask ----

/** Longest path id or list item: real ids are short slugs. */
export const MAX_ID_LENGTH = 200;
/** Most ids in one list: the add-in sends 50 at most; a list of thousands is no add-in's request. */
export const MAX_LIST_IDS = 1_000;

// ---- Holding callers, locks and failures ----

/** 25 s: below the client's 30 s per attempt, so a caller hears "try again" (503) rather than timing out. */
export const HOLD_MS = 25_000;
/** A lock outlives a dead owner by at most this; renewed every third of it while its fetch is under way. */
export const LOCK_TTL_MS = 6_000;
/**
 * A lock is renewed at most this long after it was taken: past every attempt's time-out (UPSTREAM_ATTEMPTS of
 * the client's 30 s) and a margin. A fetch still unanswered then lets go, and the need can be fetched again.
 */
export const MAX_LOCK_HOLD_MS = 75_000;
/**
 * Fetches of one need under way at once, over different days (each a lock of its own): a model asks a series
 * over a few ranges (a day, a month, a year, to the latest); a request's fetch never waits for another's days.
 */
export const FETCHES_PER_NEED = 4;
/** 5 s: within a client's first retries, so a failing request is asked again once per few seconds, not per caller. */
export const FAILURE_TTL_MS = 5_000;
/** A waiter checks again at least this often (a release notice lost in a reconnection). */
export const WAIT_POLL_MS = 1_000;

// ---- Queues ----

/**
 * Needs one user may have waiting for a fetch, per service key, in this process: a refresh of a 1,000-cell model
 * asks about 1,000 at once (20 requests of 50 projects' series each), twice that leaves room for a second
 * workbook; a user past it gets 429 with Retry-After and nothing more is queued (an attacker's 3,000 included).
 */
export const MAX_QUEUED_NEEDS_PER_USER = 2_000;
/** Retry-After given with that 429: the queue drains at the budget's pace, a second or so per request. */
export const QUEUE_FULL_RETRY_AFTER_S = 5;
/**
 * A fetch nobody waits for any more (its callers were answered 503 after HOLD_MS and have not come back) is
 * dropped from the queue after this: their retries, seconds later, join it again; a caller gone for good leaves
 * nothing behind.
 */
export const UNWAITED_DEMAND_TTL_MS = 60_000;
/**
 * Upstream requests under way at once per service key in this process. The budget decides the pace; this only
 * keeps a burst of misses from opening hundreds of sockets to the service.
 */
export const UPSTREAM_CONCURRENCY = 8;
/**
 * Attempts of one upstream request: one retry for a 5xx, a network failure or a time-out, through the budget
 * like any request. The add-in's own client retries on its side; six attempts per need here (the client's
 * default) multiplied a failing service's cost for the whole team.
 */
export const UPSTREAM_ATTEMPTS = 2;

// ---- Lanes (one per service key in use) ----

/**
 * Service keys served at once by this process: the team's and the personal keys in use. Each lane holds a
 * budget, a queue and timers: beyond this the least recently used idle lane is closed first; if none is idle,
 * the caller gets 503 (try again).
 */
export const MAX_LANES = 64;
/** A personal key's lane unused this long is closed (opened again on the next request). */
export const LANE_IDLE_MS = 15 * 60_000;
/** Registrations or removals of one's own key per user per hour: a replaced key's lane costs a lane. */
export const MAX_KEY_CHANGES_PER_HOUR = 10;
/** Users this process remembers as having registered a key (to tell them when their key was lost). */
export const MAX_REMEMBERED_KEY_USERS = 10_000;
/** The shortest personal key taken: shorter than the service's own keys is no key of the service. */
export const MIN_USER_KEY_LENGTH = 16;
/** The longest personal key taken. */
export const MAX_USER_KEY_LENGTH = 512;

// ---- Caches (bytes) ----

/**
 * Largest answer kept (JSON, in bytes): a metric of every project over months is tens of MB, and kept a week it
 * would crowd out everything else. A larger answer is served but not kept.
 */
export const MAX_ENTRY_BYTES = 8 * 1_048_576;
/** Bytes of answers one user's fetches may add to the cache per UTC day; past it their answers are not kept. */
export const MAX_USER_CACHE_BYTES_PER_DAY = 256 * 1_048_576;
/** The in-process store (one process, or a process whose Redis is away): its answers, in bytes. */
export const MEMORY_STORE_BYTES = 256 * 1_048_576;
/** The read-through copy of Redis entries a process keeps in front of Redis, in bytes. */
export const LOCAL_CACHE_BYTES = 64 * 1_048_576;

// ---- Redis ----

/** Without Redis (unreachable, or none seen yet), the budget is shared as if this many processes ran. */
export const DEFAULT_PROCESSES = 4;
/** A Redis command that takes longer fails (and the process serves from memory): a hung Redis must not hang requests. */
export const REDIS_COMMAND_TIMEOUT_MS = 1_000;

// ---- The team's daily refresh (team-refresh.ts) ----

/**
 * One hour after the cache's daily update (00:00 UTC): the service does not document when a day's figures are
 * published, and a refresh that ran before would keep yesterday's latest day for all of today. 01:00 UTC is before
 * the working morning everywhere from Singapore (09:00) westwards.
 */
export const REFRESH_AFTER_UPDATE_MS = 60 * 60_000;
/** How often a process looks whether the day's refresh is due and unclaimed: a few minutes late at most. */
export const REFRESH_CHECK_MS = 5 * 60_000;
/** How often a process merges the requests it served into the shared record: one write a minute, not one a request. */
export const REFRESH_FLUSH_MS = 60_000;
/** A request used within a week is refreshed: a model opened each Monday stays warm. */
export const REFRESH_USED_WITHIN_MS = 7 * 86_400_000;
/**
 * Requests refreshed at most: a team's dozens of models (a 1,000-cell model plans about 30 requests), 17 minutes
 * of the service's 60 a minute overnight, and a record of a few hundred KB (2 MB at the longest requests).
 */
export const MAX_REFRESH_REQUESTS = 1_000;
/** Requests first asked by one person that are kept: one user filling the record pushes out only their own. */
export const MAX_REFRESH_REQUESTS_PER_USER = 250;
/** A request longer than this (its path ids and query, as JSON) is not kept: the client's URLs stay below 2,000. */
export const MAX_REFRESH_REQUEST_CHARS = 2_100;
/** Replays under way at once: the budget's pace anyway, with the fair queue serving a person asking meanwhile next. */
export const REFRESH_CONCURRENCY = 4;

// ---- Metrics ----

/** Users named in per-user metric series; more fall under user="other" (a series per user has a cost). */
export const MAX_METRIC_USERS = 500;
