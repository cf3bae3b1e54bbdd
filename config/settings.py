"""Settings, read from the environment (see README "Configuration")."""

import os
from pathlib import Path

import dj_database_url
from celery.schedules import crontab
from django.utils.translation import gettext_lazy as _
from environs import Env

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"

env = Env()
env.read_env(BASE_DIR / ".env", recurse=False)

DEBUG = env.bool("DEBUG", default=True)
SECRET_KEY = env.str("SECRET_KEY", default="dev-only-insecure-key" if DEBUG else None)
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])
SITE_URL = env.str("SITE_URL", default="http://127.0.0.1:8000")

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "axes",
    "accounts",
    "gameplay",
    "scoresheets",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.middleware.UserLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "axes.middleware.AxesMiddleware",
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
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        env.str("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'db.sqlite3'}"),
        conn_max_age=env.int("DATABASE_CONN_MAX_AGE", default=0),
    )
}
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

AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
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
AXES_LOCKOUT_TEMPLATE = "accounts/locked_out.html"

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

# Redis carries WebSocket fan-out and Celery tasks; it is never the truth.
# Without REDIS_URL (tests, a bare shell) both fall back to in-process
# implementations; `make run` starts the embedded server and sets it.
REDIS_URL = env.str("REDIS_URL", default="")
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [REDIS_URL]},
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = None
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=not REDIS_URL)
CELERY_TASK_IGNORE_RESULT = True
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": env.int("CELERY_VISIBILITY_TIMEOUT", default=3600)}
CELERY_WORKER_HIJACK_ROOT_LOGGER = False

# Seconds a computer player "thinks" before its move; after this many more
# seconds without it, beat's sweep queues the move again.
BOT_MOVE_DELAY = env.float("BOT_MOVE_DELAY", default=1.0)
BOT_SWEEP_GRACE = env.float("BOT_SWEEP_GRACE", default=10.0)

# Clocks (see gameplay/clocks.py and gameplay/tasks.py).
DEADLINE_SWEEP_SECONDS = env.float("DEADLINE_SWEEP_SECONDS", default=5.0)
# A deadline task is never queued further ahead than this (below the
# broker's visibility timeout, after which Redis delivers a task again).
DEADLINE_TASK_HORIZON = env.int(
    "DEADLINE_TASK_HORIZON", default=CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"] // 2
)
VACATION_DAYS_PER_YEAR = env.int("VACATION_DAYS_PER_YEAR", default=30)
# A player counts as "on the game page" this long after its last heartbeat.
PRESENCE_SECONDS = env.int("PRESENCE_SECONDS", default=60)
# "Your turn" emails wait this long, in case the player comes back by himself.
TURN_EMAIL_DELAY = env.int("TURN_EMAIL_DELAY", default=120)
DIGEST_HOUR_UTC = env.int("DIGEST_HOUR_UTC", default=6)

CELERY_BEAT_SCHEDULE = {
    "sweep": {"task": "gameplay.tasks.sweep", "schedule": DEADLINE_SWEEP_SECONDS},
    "daily-digests": {"task": "gameplay.tasks.send_daily_digests",
                      "schedule": crontab(minute=0, hour=DIGEST_HOUR_UTC)},
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
    "loggers": {"django.channels.server": {"level": "WARNING"}},
}

if not DEBUG:
    SESSION_COOKIE_SECURE = env.bool("SECURE_COOKIES", default=True)
    CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
