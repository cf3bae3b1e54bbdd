// The profile's web push devices (notifications/push/_devices.html): "Turn on
// notifications on this device" asks the browser's permission, subscribes
// with the site's VAPID public key and sends the subscription to the site;
// the row of this browser's device is marked, and removing it unsubscribes
// the browser too.
(function () {
  "use strict";
  const box = document.querySelector("[data-push-devices]");
  if (!box) return;
  const button = box.querySelector("[data-push-on]");
  const status = box.querySelector("[data-push-status]");
  const say = (message) => { status.textContent = message; };

  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    say(box.dataset.unsupportedText);
    return;
  }

  function applicationServerKey(base64url) {
    const base64 = (base64url + "=".repeat((4 - (base64url.length % 4)) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  }

  function rowOf(subscription) {
    if (!subscription) return null;
    return Array.from(box.querySelectorAll("li.device")).find((li) => li.dataset.endpoint === subscription.endpoint) || null;
  }

  // A promise that gives up after the page's timeout: a push service out of
  // reach never answers, and the player must not wait for ever.
  function inTime(promise) {
    const seconds = Number(box.dataset.timeoutSeconds) || 10;
    let timer;
    const late = new Promise((resolve, reject) => {
      timer = setTimeout(() => reject(new Error(box.dataset.timeoutText)), seconds * 1000);
    });
    return Promise.race([promise, late]).finally(() => clearTimeout(timer));
  }

  const told = () => [box.dataset.blockedText, box.dataset.dismissedText, box.dataset.timeoutText];

  function send(subscription) {
    const token = box.querySelector("[name=csrfmiddlewaretoken]").value;
    return fetch(box.dataset.subscribeUrl, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": token },
      body: JSON.stringify(subscription.toJSON()),
    }).then((response) => response.json().then((data) => {
      if (!response.ok) throw new Error(data.error || response.statusText);
      return data;
    }));
  }

  navigator.serviceWorker.ready.then((registration) => registration.pushManager.getSubscription().then((current) => {
    const row = rowOf(current);
    if (row) {
      row.querySelector(".this-device").hidden = false;
      row.classList.add("this");
      say(box.dataset.onText);
    } else if (Notification.permission === "denied") {
      say(box.dataset.blockedText);
    } else {
      button.hidden = false;
    }

    button.addEventListener("click", () => {
      button.disabled = true;
      say(box.dataset.workingText);
      Notification.requestPermission().then((permission) => {
        if (permission === "denied") throw new Error(box.dataset.blockedText);
        if (permission !== "granted") throw new Error(box.dataset.dismissedText);  // the question was closed
        return inTime(registration.pushManager.getSubscription().then((existing) => existing || registration.pushManager.subscribe({
          userVisibleOnly: true,
          applicationServerKey: applicationServerKey(box.dataset.vapidKey),
        })).then(send));
      }).then(() => {
        location.reload();
      }).catch((error) => {
        button.disabled = false;
        button.textContent = box.dataset.retryText;
        say(told().includes(error.message) ? error.message : box.dataset.failedText + " " + error.message);
      });
    });

    box.querySelectorAll("form[data-push-remove]").forEach((form) => {
      form.addEventListener("submit", (event) => {
        if (!current || !form.closest("li.this")) return;
        event.preventDefault();
        current.unsubscribe().catch(() => {}).finally(() => form.submit());
      });
    });
  })).catch(() => say(box.dataset.unsupportedText));
})();
