"""The web's edge: the Starlette app (``app.py``) and every route (one module per feature), the request
helpers they share (``requests.py``), the static files, the security headers and origins, the WebSocket
protocol's frames. The only wing that speaks HTTP; nothing below imports it."""
