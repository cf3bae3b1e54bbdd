"""Web push and the installable app.

- `models.PushSubscription`: one row per device a player turned push on for
  (the browser's push subscription: its endpoint and keys).
- `channel.PushChannel`: the `push` channel of `notifications.channels`, one
  destination per subscription ("push:17"); it sends with pywebpush (VAPID,
  aes128gcm) and forgets a subscription its push service says is gone.
- `devices`: subscribing and removing a device (the profile's endpoints).
- `views`: the web app manifest, the service worker (/sw.js), the offline page,
  and the subscribe / remove endpoints.
"""
