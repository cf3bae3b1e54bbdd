"""Settings, read from the environment (see README "Configuration")."""

import os
from pathlib import Path
from urllib.parse import urlsplit

import dj_database_url
from celery.schedules import crontab
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _
from environs import Env, validate

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"

env = Env()
env.read_env(BASE_DIR / ".env", recurse=False)

DEBUG = env.bool("DEBUG", default=True)
# Production (DEBUG=false) refuses to start without its secret key and its
# public address, instead of answering every request with an error.
SECRET_KEY = env.str("SECRET_KEY", default="") or ("dev-only-insecure-key" if DEBUG else "")
if not SECRET_KEY:
    raise ImproperlyConfigured(
        "SECRET_KEY is required when DEBUG=false: set it in the environment or in .env to a long random "
        "string, e.g. the output of: python -c 'import secrets; print(secrets.token_urlsafe(50))'"
    )
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])
# The site's public address, for the links in emails (password reset,
# notifications), e.g. https://games.example.org.
SITE_URL = env.str("SITE_URL", default="") or ("http://127.0.0.1:8000" if DEBUG else "")
if not SITE_URL:
    raise ImproperlyConfigured(
        "SITE_URL is required when DEBUG=false: set it in the environment or in .env to the site's public "
        "address, e.g. https://games.example.org (the links in emails point there)"
    )
if urlsplit(SITE_URL).scheme not in ("http", "https") or not urlsplit(SITE_URL).netloc:
    raise ImproperlyConfigured(
        f"SITE_URL must be an absolute http(s) address such as https://games.example.org, not {SITE_URL!r}"
    )

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "accounts.axes_app.AxesConfig",
    "csp",
    # Sign-up with a confirmed address, the second factor and passkeys, the
    # account's sessions (django-allauth; accounts/adapter.py, README "Accounts").
    "allauth",
    "allauth.account",
    "allauth.mfa",
    "allauth.usersessions",
    # The project's apps, lowest layer first (ARCHITECTURE.md; checked by
    # import-linter, pyproject.toml). The order is also that of the game
    # events' subscribers (gameplay/events.py): ratings before leagues.
    "accounts",
    "gameplay",
    "scoresheets",
    "ratings",
    "notifications",
    "moderation",
    "leagues",
    "tournaments",
    "pages",
    # Migrations only: its reports moved to moderation with their rows (conduct/apps.py).
    "conduct",
    "correspondence",
    # django-ninja's templates and static files: /api/docs/ serves Swagger UI from the site, not a CDN.
    "ninja",
    "api",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.middleware.UserLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    # The account's sessions: address, browser, last seen (accounts/devices.py).
    "accounts.devices.SessionActivityMiddleware",
    # A staff account without a second factor is sent to set one up before the admin.
    "accounts.middleware.StaffSecondFactorMiddleware",
    "axes.middleware.AxesMiddleware",
    "gameplay.middleware.BusyDatabaseMiddleware",
]

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                # The banner of an account whose address waits for its confirmation.
                "accounts.verification.context",
            ],
        },
    },
]

_CONNECTIONS = validate.Range(min=0, error="{input!r} is not a whole number of 0 or more")
_CONN_MAX_AGE = env.int("DATABASE_CONN_MAX_AGE", default=0, validate=_CONNECTIONS)


def _database(url: str) -> dict:
    """One database's settings from its URL, with the connection policy below."""
    database = dj_database_url.parse(url, conn_max_age=_CONN_MAX_AGE)
    if database["ENGINE"] == "django.db.backends.postgresql":
        database["ENGINE"] = "config.postgresql"  # Django's, with BEGIN sent with the first statement (config/postgresql)
        # Reused connections on PostgreSQL: a pool per process (psycopg_pool,
        # Django's OPTIONS["pool"]), at most DATABASE_POOL connections, not
        # CONN_MAX_AGE. daphne is an ASGI server: its HTTP views run each request
        # in a thread of its own, so a connection kept for reuse (CONN_MAX_AGE)
        # stays with a thread that is gone and the next request opens another
        # (Django's docs: under ASGI, disable persistent connections and use the
        # backend's pool). The sockets' and the API streams' database work runs
        # on DATABASE_THREADS threads per process (below), which close the
        # connection before and after each call: with the pool, "closing" hands
        # it back and the next call takes it again, no new connection each time.
        # Celery's prefork workers close the pool at every task boundary (celery
        # #10554) and close plain connections after every task whatever
        # CONN_MAX_AGE says: a connection per task either way, so one connection
        # (min_size=1) is all the pool opens there. Health checks: the pool checks
        # a connection before lending it unless it lent it in the last half
        # second (config/postgresql/pool.py), so one broken by a PostgreSQL
        # restart is replaced instead of failing a request. DATABASE_POOL=0 turns the pool
        # off, and only then may DATABASE_CONN_MAX_AGE keep connections (Django
        # refuses both at once).
        pool_size = env.int("DATABASE_POOL", default=10, validate=_CONNECTIONS)
        if pool_size and database["CONN_MAX_AGE"]:
            raise ImproperlyConfigured(
                "DATABASE_CONN_MAX_AGE needs DATABASE_POOL=0: a connection pool (DATABASE_POOL, the default on "
                "PostgreSQL) and persistent connections exclude each other"
            )
        database["CONN_HEALTH_CHECKS"] = True
        if pool_size:
            database.setdefault("OPTIONS", {})["pool"] = {"min_size": 1, "max_size": pool_size}
    return database


DATABASES = {"default": _database(env.str("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'db.sqlite3'}"))}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # IMMEDIATE takes the write lock when a transaction begins, so two moves
    # for one game queue up instead of failing with "database is locked".
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 30,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
    # A file, not memory: the concurrency tests' threads and the browser
    # tests' live server must all see the one test database.
    # One per test process, so test runs side by side don't share it.
    DATABASES["default"]["TEST"] = {
        "NAME": env.str("TEST_DB_NAME", default=str(VAR_DIR / f"test-db-{os.getpid()}.sqlite3"))
    }
    VAR_DIR.mkdir(exist_ok=True)
# Every socket's database work runs on this many threads per daphne process
# (gameplay/database_threads.py), each with its own connection from the pool, so
# one table's move waiting on PostgreSQL does not hold up every other table's:
# the game sockets', the badge socket's counts, a division's live standings, the
# API's event streams and its token check for sockets, and the session sockets'
# user lookup when they open (gameplay/socket_auth.py). HTTP views keep Django's
# thread per request.
# SQLite takes one write at a time: one thread there. On PostgreSQL two: four
# made a move's round trip slower at 150 games on one process, p99 227-242 ms
# against 98-126 and p50 29-35 against 22-26 (alternated twice, bench/README.md,
# issue 45): the threads' Python shares one GIL, and a second thread is
# what lets one table's move go on while another's waits for the server.
# Three doubled the p99 at 150 games too (47 and 80 ms against 26 and 33), but
# past saturation kept the line short (a quarter of the p99, few "busy"
# answers, the same throughput): a setting for a process that runs saturated.
# At most DATABASE_POOL (the pool also serves the pages' requests).
_pool = DATABASES["default"].get("OPTIONS", {}).get("pool")
_default_threads = min(2, _pool["max_size"]) if _pool else 1 if DATABASES["default"]["ENGINE"].endswith("sqlite3") else 2
DATABASE_THREADS = env.int("DATABASE_THREADS", default=_default_threads, validate=validate.Range(min=1))
if _pool and DATABASE_THREADS > _pool["max_size"]:
    raise ImproperlyConfigured("DATABASE_THREADS may not exceed DATABASE_POOL: each thread holds a pooled connection")
# Read replicas (README "Read replicas"): DATABASE_REPLICA_URLS, comma-separated URLs of
# PostgreSQL streaming replicas of DATABASE_URL. Pages' reads go to one of them
# (config/db_router.py); the move path, every transaction and a viewer's pages for
# READ_OWN_WRITES_SECONDS after his own change read the primary (accounts/primary_reads.py).
# Unset: one database, as before (no router, no middleware).
DATABASE_REPLICAS = []
for _number, _url in enumerate(env.list("DATABASE_REPLICA_URLS", default=[]), start=1):
    DATABASES[f"replica{_number}"] = {**_database(_url), "TEST": {"MIRROR": "default"}}
    DATABASE_REPLICAS.append(f"replica{_number}")
if DATABASE_REPLICAS and DATABASES["default"]["ENGINE"] != "config.postgresql":
    raise ImproperlyConfigured("DATABASE_REPLICA_URLS needs DATABASE_URL to name the PostgreSQL primary they replicate")
DATABASE_ROUTERS = ["config.db_router.ReplicaRouter"] if DATABASE_REPLICAS else []
READ_OWN_WRITES_SECONDS = env.float("READ_OWN_WRITES_SECONDS", default=10.0, validate=validate.Range(min=0))
if DATABASE_REPLICAS:
    # Last: the session, the user and every other middleware read the primary; the view may read a replica.
    MIDDLEWARE.append("accounts.primary_reads.ReplicaReadsMiddleware")

AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "accounts.limits.LoginLimitBackend",
    "accounts.standing.SuspendedAccountBackend",
    # Django's ModelBackend, by username or by address (allauth's).
    "allauth.account.auth_backends.AuthenticationBackend",
    # Still named by the sessions made before allauth came (a session keeps its backend's path).
    "django.contrib.auth.backends.ModelBackend",
]
# The first hashes new passwords; the others still check older hashes. Django's
# list by default; an operator may put argon2 or scrypt first. The browser tests'
# servers name a fast one: their hundreds of logins would otherwise spend minutes
# of CPU on PBKDF2.
PASSWORD_HASHERS = env.list("PASSWORD_HASHERS", default=[
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2SHA1PasswordHasher",
    "django.contrib.auth.hashers.Argon2PasswordHasher",
    "django.contrib.auth.hashers.BCryptSHA256PasswordHasher",
    "django.contrib.auth.hashers.ScryptPasswordHasher",
])
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "lobby"
LOGOUT_REDIRECT_URL = "lobby"

# Login rate limit (django-axes): this many failures lock the username+IP
# pair for AXES_COOLOFF_MINUTES.
AXES_FAILURE_LIMIT = env.int("LOGIN_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = env.int("LOGIN_COOLOFF_MINUTES", default=15) / 60
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "accounts.limits.axes_lockout_response"
# The name or address typed on the login page (its field "username", allauth's "login").
AXES_USERNAME_CALLABLE = "accounts.limits.axes_username"

# django-allauth (accounts/adapter.py). Sign-up asks a username, an address and
# the password twice; the address is confirmed by a link before the account may
# play with strangers (accounts/verification.py), but the account logs in at once.
# Login by username or address. Changing the address confirms the new one
# before it replaces the old (one address per account).
ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"
ACCOUNT_SIGNUP_FIELDS = ["username*", "email*", "password1*", "password2*"]
ACCOUNT_FORMS = {"signup": "accounts.forms.SignupForm", "login": "accounts.forms.LoginForm"}
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_EMAIL_VERIFICATION = "optional"
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_CHANGE_EMAIL = True
ACCOUNT_MAX_EMAIL_ADDRESSES = 2
ACCOUNT_CONFIRM_EMAIL_ON_GET = False
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = False
ACCOUNT_EMAIL_CONFIRMATION_EXPIRE_DAYS = env.int("EMAIL_CONFIRMATION_DAYS", default=3)
ACCOUNT_SESSION_REMEMBER = True
ACCOUNT_PREVENT_ENUMERATION = False
ACCOUNT_EMAIL_NOTIFICATIONS = True
ACCOUNT_USER_DISPLAY = "accounts.adapter.user_display"
# The project's own limits count logins, sign-ups and password resets (accounts/limits.py, django-axes).
# A confirmation link is sent again to one address at most once in
# EMAIL_CONFIRMATION_COOLDOWN_SECONDS.
ACCOUNT_RATE_LIMITS = {
    "login": None, "login_failed": None, "signup": None, "reset_password": None,
    "confirm_email": f"1/{env.int('EMAIL_CONFIRMATION_COOLDOWN_SECONDS', default=180)}s/key",
}
# A second factor (allauth.mfa): TOTP with recovery codes, and WebAuthn passkeys,
# as a second factor or for a passwordless login. Required of staff before the
# admin (accounts/middleware.py), optional for players.
MFA_ADAPTER = "accounts.adapter.MFAAdapter"
MFA_SUPPORTED_TYPES = ["totp", "recovery_codes", "webauthn"]
MFA_PASSKEY_LOGIN_ENABLED = True
# A refused passkey assertion is told as such (accounts/passkeys.py).
MFA_FORMS = {
    "authenticate_webauthn": "accounts.passkeys.AuthenticatePasskeyForm",
    "login_webauthn": "accounts.passkeys.LoginPasskeyForm",
    "reauthenticate_webauthn": "accounts.passkeys.ReauthenticatePasskeyForm",
}
MFA_TOTP_ISSUER = env.str("MFA_TOTP_ISSUER", default="Kitchen table")
# WebAuthn needs HTTPS, or http on localhost (the development server, the browser tests).
MFA_WEBAUTHN_ALLOW_INSECURE_ORIGIN = DEBUG
# The account's sessions (allauth.usersessions): device, address, last seen; the
# profile ends any of them (which closes its sockets: accounts/sessions.py).
USERSESSIONS_TRACK_ACTIVITY = False  # ours, cheaper: accounts/devices.py
# The place of a session's network address, read from a MaxMind-format database
# (GeoLite2 City or Country .mmdb; README "Accounts"): its path, or empty (places unknown).
GEOIP_DATABASE = env.str("GEOIP_DATABASE", default="")
# A session's "last seen" is written at most this often (accounts/devices.py).
SESSION_SEEN_SECONDS = env.int("SESSION_SEEN_SECONDS", default=300)

# Abuse limits on the account pages (django-ratelimit, see accounts/limits.py),
# each "COUNT/PERIOD" with PERIOD s, m, h or d, optionally with a number
# before it ("20/15m": 20 per 15 minutes). Counted in the cache (below).
_RATE = validate.Regexp(r"^[1-9][0-9]*/([1-9][0-9]*)?[smhd]$", error="{input!r} is not like 20/15m (count/period)")
# Failed logins from one network address, whatever the usernames, and to
# one username, from wherever: past either, logging in is refused until
# the period ends.
LOGIN_FAILURES_PER_IP = env.str("LOGIN_FAILURES_PER_IP", default="20/15m", validate=_RATE)
LOGIN_FAILURES_PER_USER = env.str("LOGIN_FAILURES_PER_USER", default="20/h", validate=_RATE)
# Accounts created from one network address.
SIGNUPS_PER_IP = env.str("SIGNUPS_PER_IP", default="10/d", validate=_RATE)
# Password reset emails asked for one email address, and from one network address.
PASSWORD_RESETS_PER_ADDRESS = env.str("PASSWORD_RESETS_PER_ADDRESS", default="3/h", validate=_RATE)
PASSWORD_RESETS_PER_IP = env.str("PASSWORD_RESETS_PER_IP", default="10/h", validate=_RATE)
# Reports (of a game, a player, a chat message) one account may send.
REPORTS_PER_USER = env.str("REPORTS_PER_USER", default="10/h", validate=_RATE)
# Challenges one account may send (correspondence/limits.py).
CHALLENGES_PER_USER = env.str("CHALLENGES_PER_USER", default="20/h", validate=_RATE)
# Requests one API token may make (api/auth.py), and tokens one account may create.
API_REQUESTS_PER_TOKEN = env.str("API_REQUESTS_PER_TOKEN", default="300/m", validate=_RATE)
API_TOKENS_PER_USER = env.str("API_TOKENS_PER_USER", default="20/d", validate=_RATE)
# The API's event streams (api/streams.py): how often a stream looks at the
# database when no message woke it, and how long one response lasts before it
# ends (the client reconnects with the last version it saw).
API_STREAM_POLL_SECONDS = env.float("API_STREAM_POLL_SECONDS", default=5.0)
API_STREAM_MAX_SECONDS = env.int("API_STREAM_MAX_SECONDS", default=3600)
# The rate limits' counters and who is on a game page (gameplay/presence.py)
# must be shared by every web process: with REDIS_URL they live
# in Redis, without it (one process: `make run`, tests) in local memory.
# django_ratelimit is not in INSTALLED_APPS: the app holds nothing but a system
# check that refuses the local-memory cache and warns about Django's own Redis
# cache (it knows only the django-redis package's).
_CACHE_REDIS_URL = env.str("REDIS_URL", default="")
# Django's RedisCache with one client per process (config/cache.py). A Redis
# that does not answer fails a cache call within a second, not after the
# system's TCP timeouts.
REDIS_CACHE = {"BACKEND": "config.cache.SharedRedisCache", "KEY_PREFIX": "kitchen-table",
               "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1}}
CACHES = {
    "default": {**REDIS_CACHE, "LOCATION": _CACHE_REDIS_URL}
    if _CACHE_REDIS_URL
    else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
}

LANGUAGE_CODE = env.str("LANGUAGE_CODE", default="ru")
LANGUAGES = [("ru", _("Russian")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

EMAIL_BACKEND = env.str("EMAIL_BACKEND", default="django.core.mail.backends.console.EmailBackend")
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="games@localhost")
EMAIL_HOST = env.str("EMAIL_HOST", default="localhost")
EMAIL_PORT = env.int("EMAIL_PORT", default=25)

# Redis carries WebSocket fan-out and Celery tasks (and holds the cache); it is never the truth.
# Without REDIS_URL (tests, a bare shell) both fall back to in-process
# implementations; `make run` starts the embedded server and sets it.
REDIS_URL = env.str("REDIS_URL", default="")
# The channel layer sharded over several Redis servers (README "Read replicas"):
# CHANNEL_REDIS_URLS, comma-separated; each group and each process' channels live
# on one of them (channels_redis' consistent hashing). Unset: REDIS_URL's server.
CHANNEL_REDIS_URLS = env.list("CHANNEL_REDIS_URLS", default=[]) or ([REDIS_URL] if REDIS_URL else [])
if CHANNEL_REDIS_URLS:
    CHANNEL_LAYERS = {
        "default": {
            # channels_redis' layer, its connections set up to survive Redis restarts (config/channel_layer.py).
            "BACKEND": "config.channel_layer.RedisChannelLayer",
            "CONFIG": {"hosts": CHANNEL_REDIS_URLS},
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

CELERY_BROKER_URL = REDIS_URL or "memory://"
if CELERY_BROKER_URL.startswith("redis://"):
    CELERY_BROKER_TRANSPORT = "config.celery:RedisTransport"  # kombu's, publishing through one client
CELERY_RESULT_BACKEND = None
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=not REDIS_URL)
CELERY_TASK_IGNORE_RESULT = True
# The queue this process' tasks go to (Celery's default is "celery", shared by
# every worker). A set of web and worker processes of its own (a machine) may
# name its own queue and start its workers on it (`-Q`), so that the deadlines
# and computer moves its players' moves queue are run next to them; beat's
# sweep still finds, from its one set, whatever a set's queue loses.
CELERY_TASK_DEFAULT_QUEUE = env.str("CELERY_QUEUE", default="celery")
# The computer players' moves (issue 43) go to a queue of their own, consumed by a worker of its own
# (config/supervisord.conf's `computers`), so that a table of four computers searching their moves
# never keeps a deadline or a notice of the default queue waiting. A set with its own CELERY_QUEUE
# gets its own computers' queue too ("<queue>.computers").
CELERY_COMPUTER_QUEUE = env.str(
    "CELERY_COMPUTER_QUEUE",
    default="computers" if CELERY_TASK_DEFAULT_QUEUE == "celery" else f"{CELERY_TASK_DEFAULT_QUEUE}.computers")
CELERY_TASK_ROUTES = {"gameplay.tasks.play_bot": {"queue": CELERY_COMPUTER_QUEUE},
                      "ratings.tasks.play_computer_matches": {"queue": CELERY_COMPUTER_QUEUE}}
# The computer levels' duplicate-deal matches (ratings/tasks.py, `manage.py play_computer_matches` in
# portions): beat queues a portion on the computers' queue this often (0: never), of this many deals.
COMPUTER_MATCHES_SECONDS = env.int("COMPUTER_MATCHES_SECONDS", default=3600, validate=validate.Range(min=0))
COMPUTER_MATCHES_DEALS = env.int("COMPUTER_MATCHES_DEALS", default=1, validate=validate.Range(min=1))
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": env.int("CELERY_VISIBILITY_TIMEOUT", default=3600),
    # A Redis host that vanished (rather than refusing) costs at most this
    # per try to reach it, so a worker notices its return promptly.
    "socket_connect_timeout": 3,
    # A lost connection's implicit reconnect (kombu's default channel, as
    # beat's publish meets it): tries at most a second apart, as the worker's
    # (config/celery.py), not kombu's 2 s, 4 s...
    "interval_start": 0,
    "interval_step": 0.5,
    "interval_max": 1,
}
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
# Redis outages (config/celery.py): the worker keeps trying to reconnect for
# as long as it takes, at most a second apart (its own consumer class), so
# deadlines are enforced again within a sweep of Redis coming back.
CELERY_BROKER_CONNECTION_RETRY = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
CELERY_WORKER_CONSUMER = "config.celery:Consumer"
CELERY_BEAT_SCHEDULER = "config.celery:Scheduler"
# Celery 6's default, set now: on a lost connection only tasks with late
# acknowledgement are cancelled, and there are none here (every task may run
# twice harmlessly, but none is acked late), so this changes nothing but
# silencing Celery's pending-deprecation warning on every reconnect.
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = True

# Seconds a computer player "thinks" before its move; after this many more
# seconds without it, beat's sweep queues the move again.
BOT_MOVE_DELAY = env.float("BOT_MOVE_DELAY", default=1.0)
# Standing orders (gameplay/engine/orders.py) are looked at once a turn, at a moment drawn from a
# secret (gameplay.clocks.release_delay): between 1 s and the smaller of this many seconds and half
# the move time after the seat went on the clock, so that when an order's move appears tells nobody
# anything about the cards or the order.
ORDER_RELEASE_MAX_SECONDS = env.float("ORDER_RELEASE_MAX_SECONDS", default=2 * 3600.0)
BOT_SWEEP_GRACE = env.float("BOT_SWEEP_GRACE", default=10.0)
# The level of the computer that takes a suspended player's seat in a game whose organizer chose none
# and where no computer sits already (moderation.permissions.substitute_level).
COMPUTER_SUBSTITUTE_LEVEL = env.int("COMPUTER_SUBSTITUTE_LEVEL", default=2, validate=validate.OneOf([1, 2, 3]))

# How long the thread that queues a process' follow-up tasks (gameplay/services/after_commit.py)
# waits for the follow-ups of the commits right behind the one that woke it, so that they go as one
# task: each task costs the worker its receipt and hand-over whatever it carries. 0.1 s, against
# 0.01 s before, halved the worker's CPU per move of one table's moves (bench/README.md, issue 45);
# what it delays (badges, notices, the deadline task, a computer's move) may wait that long.
FOLLOW_UP_LINGER_SECONDS = env.float("FOLLOW_UP_LINGER_SECONDS", default=0.1)

# Clocks (see gameplay/clocks.py and gameplay/tasks.py).
DEADLINE_SWEEP_SECONDS = env.float("DEADLINE_SWEEP_SECONDS", default=5.0)
# A deadline task is never queued further ahead than this (below the
# broker's visibility timeout, after which Redis delivers a task again).
DEADLINE_TASK_HORIZON = env.int(
    "DEADLINE_TASK_HORIZON", default=CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"] // 2
)
# A player's "Download my data" file is kept this many days (pages/personal_data.py).
DATA_EXPORT_DAYS = env.int("DATA_EXPORT_DAYS", default=7)
VACATION_DAYS_PER_YEAR = env.int("VACATION_DAYS_PER_YEAR", default=30)
# Leagues: anyone logged in may create one, or only staff when this is set.
LEAGUES_BY_STAFF_ONLY = env.bool("LEAGUES_BY_STAFF_ONLY", default=False)
# A started season's schedule is drawn up by a Celery task; beat's sweep draws
# again a season still drawing this long after its start (its task was lost).
LEAGUE_DRAW_GRACE_SECONDS = env.int("LEAGUE_DRAW_GRACE_SECONDS", default=300)
LEAGUE_DRAW_SWEEP_SECONDS = env.float("LEAGUE_DRAW_SWEEP_SECONDS", default=60.0)
# Tournaments: beat's sweep runs out the clocks of a round past its deadline
# and starts a round due on its date (tournaments/tasks.py).
TOURNAMENT_SWEEP_SECONDS = env.float("TOURNAMENT_SWEEP_SECONDS", default=60.0)
# A round's last game queues the next round's pairing (a Celery task); beat's
# sweep pairs it itself when it is still not started this long after (the task was lost).
TOURNAMENT_ADVANCE_GRACE_SECONDS = env.int("TOURNAMENT_ADVANCE_GRACE_SECONDS", default=300)
# The players of a round's games still in play are warned this long before its deadline.
TOURNAMENT_DEADLINE_WARNING_HOURS = env.float("TOURNAMENT_DEADLINE_WARNING_HOURS", default=24.0)
# A challenge's expiry task is queued after its commit; beat's sweep closes
# every pending challenge past its time that a lost task left open.
CHALLENGE_SWEEP_SECONDS = env.float("CHALLENGE_SWEEP_SECONDS", default=60.0)
# Past saturation: the socket frames that change state (moves, chat, "ahead")
# waiting for a daphne process' database threads (DATABASE_THREADS) at most, and how long one may
# wait for its turn; beyond either it is answered "busy" and the page resends
# it a moment later (gameplay/inbound.py, `in_line`). At about 16 ms a move,
# 100 in line are 1.6 s of work.
SOCKET_LINE_LIMIT = env.int("SOCKET_LINE_LIMIT", default=100, validate=validate.Range(min=1))
SOCKET_LINE_SECONDS = env.float("SOCKET_LINE_SECONDS", default=5.0, validate=validate.Range(min=0))
# A player counts as "on the game page" this long after its socket's last
# heartbeat (a key in the cache, gameplay/presence.py); the seat's `seen_at`
# ("last seen", the friends page) is written when the page opens and at most
# this often while it stays open.
PRESENCE_SECONDS = env.int("PRESENCE_SECONDS", default=60, validate=validate.Range(min=1))
SEEN_AT_WRITE_SECONDS = env.int("SEEN_AT_WRITE_SECONDS", default=600, validate=validate.Range(min=0))
# "Your turn" emails wait this long, in case the player comes back by himself.
TURN_EMAIL_DELAY = env.int("TURN_EMAIL_DELAY", default=120)
DIGEST_HOUR_UTC = env.int("DIGEST_HOUR_UTC", default=6)
# Notifications (notifications.dispatch): "your move" notices of one player within this many seconds
# become one; a failing channel retries with back-off from NOTIFY_RETRY_SECONDS doubling up to
# NOTIFY_RETRY_MAX_SECONDS, NOTIFY_MAX_ATTEMPTS times; the sweep queues again what a lost task left.
NOTIFY_COALESCE_SECONDS = env.int("NOTIFY_COALESCE_SECONDS", default=60)
NOTIFY_RETRY_SECONDS = env.int("NOTIFY_RETRY_SECONDS", default=30)
NOTIFY_RETRY_MAX_SECONDS = env.int("NOTIFY_RETRY_MAX_SECONDS", default=1800)
NOTIFY_MAX_ATTEMPTS = env.int("NOTIFY_MAX_ATTEMPTS", default=8)
NOTIFY_STALE_SECONDS = env.int("NOTIFY_STALE_SECONDS", default=600)
NOTIFY_SWEEP_SECONDS = env.float("NOTIFY_SWEEP_SECONDS", default=60.0)

# Web push (notifications/push/): the site's VAPID key pair, base64url (the
# private key raw or DER, the public key an uncompressed P-256 point), and the
# contact the push services may write to (mailto: or https:). Without both keys
# push is off and the profile does not offer it. Make a pair with
# `python manage.py vapid_keys`; in development (DEBUG) `make run` writes one
# once into var/vapid.env, read here when the environment sets none.
if DEBUG and (VAR_DIR / "vapid.env").is_file():
    env.read_env(VAR_DIR / "vapid.env", recurse=False, override=False)
VAPID_PUBLIC_KEY = env.str("VAPID_PUBLIC_KEY", default="")
VAPID_PRIVATE_KEY = env.str("VAPID_PRIVATE_KEY", default="")
VAPID_SUBJECT = env.str(
    "VAPID_SUBJECT", default=f"mailto:{DEFAULT_FROM_EMAIL}",
    validate=validate.Regexp(r"^(mailto:|https://)\S+$", error="{input!r} is not a mailto: or https:// address"),
)
# How long a push service keeps a message for a device that is offline (seconds).
PUSH_TTL_SECONDS = env.int("PUSH_TTL_SECONDS", default=24 * 3600)
# Devices (push subscriptions) one account may have.
PUSH_DEVICES_PER_USER = env.int("PUSH_DEVICES_PER_USER", default=10)
# The push services the site sends to (a subscription's endpoint host, or a
# subdomain of one): the browsers' own (Chrome, Edge, Firefox, Safari), so that
# a made-up "subscription" cannot make the site post to any other address.
# "*" allows any https host. Whatever the list, an endpoint is refused unless
# it is a plain https address on port 443 that names its host (no address
# literal, no user information, no backslash: notifications/push/devices.py).
PUSH_SERVICE_HOSTS = env.list("PUSH_SERVICE_HOSTS", default=[
    "fcm.googleapis.com", "android.googleapis.com", "push.services.mozilla.com", "notify.windows.com",
    "push.apple.com",
])
# Origins trusted exactly as written ("http://127.0.0.1:8090"): a push service
# of your own or a local stand-in, which the rules above would refuse. Empty by default.
PUSH_SERVICE_ORIGINS = env.list("PUSH_SERVICE_ORIGINS", default=[])

# Telegram (notifications/telegram/): without TELEGRAM_BOT_TOKEN (from @BotFather)
# the bot process exits at once and the profile does not offer Telegram.
# TELEGRAM_BOT_USERNAME names the bot in the profile's deep link (t.me/<name>);
# unset, it is asked from the Bot API (getMe) once. TELEGRAM_WEBHOOK_URL set:
# Telegram posts the updates to the site's /telegram/webhook/ (the address
# given, with TELEGRAM_WEBHOOK_SECRET in its header) instead of the bot
# process polling for them. TELEGRAM_API_URL: another Bot API server (the
# tests' local stand-in, or a self-hosted telegram-bot-api).
TELEGRAM_BOT_TOKEN = env.str("TELEGRAM_BOT_TOKEN", default="")
TELEGRAM_BOT_USERNAME = env.str("TELEGRAM_BOT_USERNAME", default="").lstrip("@")
TELEGRAM_WEBHOOK_URL = env.str("TELEGRAM_WEBHOOK_URL", default="")
TELEGRAM_WEBHOOK_SECRET = env.str("TELEGRAM_WEBHOOK_SECRET", default="")
TELEGRAM_API_URL = env.str("TELEGRAM_API_URL", default="https://api.telegram.org")
# How long a profile's "Link Telegram" deep link stays valid.
TELEGRAM_LINK_MINUTES = env.int("TELEGRAM_LINK_MINUTES", default=15)
if TELEGRAM_BOT_TOKEN and TELEGRAM_WEBHOOK_URL and not TELEGRAM_WEBHOOK_SECRET:
    raise ImproperlyConfigured(
        "TELEGRAM_WEBHOOK_URL needs TELEGRAM_WEBHOOK_SECRET (1-256 characters of A-Z, a-z, 0-9, _ and -): "
        "the webhook refuses updates without it"
    )

CELERY_BEAT_SCHEDULE = {
    "sweep": {"task": "gameplay.tasks.sweep", "schedule": DEADLINE_SWEEP_SECONDS},
    "daily-digests": {"task": "notifications.tasks.send_daily_digests",
                      "schedule": crontab(minute=0, hour=DIGEST_HOUR_UTC)},
    "league-drawing": {"task": "leagues.tasks.sweep_drawing", "schedule": LEAGUE_DRAW_SWEEP_SECONDS},
    "tournament-rounds": {"task": "tournaments.tasks.sweep_rounds", "schedule": TOURNAMENT_SWEEP_SECONDS},
    "challenge-expiry": {"task": "correspondence.tasks.sweep_challenges", "schedule": CHALLENGE_SWEEP_SECONDS},
    "notification-sweep": {"task": "notifications.dispatch.sweep", "schedule": NOTIFY_SWEEP_SECONDS},
    "forget-data-exports": {"task": "pages.tasks.forget_data_exports", "schedule": crontab(minute=30, hour=3)},
}
if COMPUTER_MATCHES_SECONDS:
    CELERY_BEAT_SCHEDULE["computer-matches"] = {
        "task": "ratings.tasks.play_computer_matches", "schedule": COMPUTER_MATCHES_SECONDS,
        "options": {"queue": CELERY_COMPUTER_QUEUE, "expires": COMPUTER_MATCHES_SECONDS}}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
    "loggers": {"django.channels.server": {"level": "WARNING"}},
}

# HTTPS. In production (DEBUG=false) every request is redirected to HTTPS,
# browsers are told to use nothing else (HSTS) and the cookies are sent only
# over HTTPS; each can be turned off from the environment.
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=not DEBUG)
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=0 if DEBUG else 365 * 24 * 3600)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=True)
SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=False)
if not SECURE_HSTS_PRELOAD:
    # Asking to be put on the browsers' HSTS preload list is a lasting
    # commitment for the whole domain: the operator's deliberate choice,
    # off by default, so the deployment check's nudge towards it is silenced.
    SILENCED_SYSTEM_CHECKS = ["security.W021"]
# Behind a proxy that terminates TLS: the header by which it says the
# request came over HTTPS (with the value "https"), e.g. X-Forwarded-Proto.
# Set it only when the proxy always sets or strips that header.
_proxy_ssl_header = env.str("SECURE_PROXY_SSL_HEADER", default="").strip()
SECURE_PROXY_SSL_HEADER = (
    ("HTTP_" + _proxy_ssl_header.upper().replace("-", "_"), "https") if _proxy_ssl_header else None
)
# Database sessions whose end closes the WebSockets opened with them (accounts/sockets.py).
SESSION_ENGINE = "accounts.sessions"
SESSION_COOKIE_SECURE = env.bool("SECURE_COOKIES", default=not DEBUG)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
LANGUAGE_COOKIE_SECURE = SESSION_COOKIE_SECURE

# Content-Security-Policy (django-csp): scripts, styles and everything else
# from the site itself only; no inline script or event handler attributes in
# the templates (behaviour lives in static/js/), no framing.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        # The installable app: its manifest and the service worker (/sw.js, notifications/push/).
        "manifest-src": [SELF],
        "worker-src": [SELF],
        "font-src": [SELF],
        "connect-src": [SELF],  # fetch() and the WebSockets (CSP 3: 'self' covers ws/wss)
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}
