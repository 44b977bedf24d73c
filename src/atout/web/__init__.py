"""The browser client: static files (``static/``) that ``atout serve`` serves at ``/`` and ``/static``.

Plain JavaScript modules, HTML and CSS, with no build step: installing the package is enough.
"""
