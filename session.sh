quire init --sample the-thirteenth-bell     # a short original mystery with 26 codex entries
cd the-thirteenth-bell
quire index                                 # reads the book, lists problems
quire lookup "the Harbormistress"           # canon by name or alias
quire mentions Séverine                     # the chapters that mention her, and how often
quire untracked                             # recurring names with no codex entry yet
quire stats                                 # words by chapter, today's work, goals
quire check                                 # every problem quire knows, with no model
quire build                                 # the standard manuscript (DOCX); the last line says where it is
quire build --format epub                   # an e-book
quire doctor                                # is the advisor ready: a model and its key (optional)
