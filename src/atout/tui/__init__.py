"""The terminal game (``atout play``) and the deal record viewer (``atout replay FILE``), with Textual.

``game.Game`` is the session model (deals, dealer, score sheet, saves) with no
UI; ``app.AtoutApp`` is the Textual application; ``replay.ReplayApp`` the viewer.
"""
