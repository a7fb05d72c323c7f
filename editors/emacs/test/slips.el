;;; slips.el --- a writer types continuity slips in Emacs with eglot  -*- lexical-binding: t; -*-

;; Run by editors/emacs/slips_test.go:
;;   emacs --batch -l slips.el
;; with QUIRE_SETUP (editors/emacs/quire.el), QUIRE_BIN, QUIRE_SLIPS (the
;; slip book's fixture, editors/editortest/slips.go) and QUIRE_RESULT in
;; the environment. The chapter opens clean; the writer types each line
;; of the fixture, key by key, and after each line the diagnostics
;; Flymake shows in the buffer must be exactly the slips typed so far, at
;; their words; a decoy must draw none. Then the writer applies the
;; fixture's fix through eglot's code-action menu. Writes "ok <step>",
;; "time <slip> <ms>", "seen ...", "offered <title>", "after <line>" and
;; PASS or "FAIL <step>: <why>" to QUIRE_RESULT.
;;
;; Batch Emacs never idles, so its idle timers (eglot sends changes and
;; Flymake starts a check once the writer pauses) would never run: the
;; waits below run them as the command loop would, each once its idle
;; time has passed since the last key.

;;; Code:

(load (expand-file-name "harness.el" (file-name-directory load-file-name)) nil t)

(defvar quire-test-fixture
  (with-temp-buffer
    (insert-file-contents (getenv "QUIRE_SLIPS"))
    (json-parse-buffer :object-type 'alist :array-type 'list)))

(defun quire-test-get (obj key) (alist-get key obj))

(defvar quire-test-chapter (quire-test-get quire-test-fixture 'chapter))

;; Which version of the chapter the diagnostics shown are of: the
;; version each publication names, so a wait ends on the diagnostics of
;; the text as typed, not on older ones still on their way.
(defvar quire-test-published -1)
(advice-add 'eglot-handle-notification :after
            (lambda (_server method &rest params)
              (when (and (eq method 'textDocument/publishDiagnostics)
                         (equal (file-truename (eglot--uri-to-path (plist-get params :uri)))
                                (file-truename quire-test-chapter)))
                (setq quire-test-published (or (plist-get params :version) 0)))))

(defun quire-test-idle-wait (what timeout pred)
  "Wait up to TIMEOUT seconds, the writer idle, for PRED to return
non-nil; its value. Idle timers run once their time has passed.
Signals an error naming WHAT and PRED's last complaint when it does not."
  (let* ((start (float-time)) (deadline (+ start timeout)) fired v)
    (while (and (not (setq v (funcall pred))) (< (float-time) deadline))
      (dolist (timer (copy-sequence timer-idle-list))
        (when (and (not (memq timer fired))
                   (>= (- (float-time) start) (float-time (timer--time timer))))
          (push timer fired)
          (timer-event-handler timer)))
      (accept-process-output nil 0.01))
    (or v (error "timed out after %ss waiting for %s: %s" timeout what quire-test-why))))

(defvar quire-test-why nil "Why the last check did not match.")

(defun quire-test-shown ()
  "The diagnostics Flymake shows in the current buffer, as lists
(CODE LINE CHAR-COL WORDS MESSAGE)."
  (mapcar (lambda (d)
            (let* ((beg (flymake-diagnostic-beg d))
                   (end (flymake-diagnostic-end d))
                   (lsp (alist-get 'eglot-lsp-diag (flymake-diagnostic-data d))))
              (save-excursion
                (goto-char beg)
                (list (plist-get lsp :code)
                      (1- (line-number-at-pos beg))
                      (- beg (line-beginning-position))
                      (buffer-substring-no-properties beg end)
                      (flymake-diagnostic-text d)))))
          (flymake-diagnostics)))

(defun quire-test-matches (want)
  "Whether Flymake shows exactly the slips WANT, each at its words."
  (let ((shown (quire-test-shown)))
    (setq quire-test-why (format "shown: %S" shown))
    (and (= (length shown) (length want))
         (cl-every (lambda (w)
                     (cl-some (lambda (s)
                                (and (equal (nth 0 s) (quire-test-get w 'code))
                                     (= (nth 1 s) (quire-test-get w 'line))
                                     (= (nth 2 s) (quire-test-get w 'charCol))
                                     (equal (nth 3 s) (quire-test-get w 'words))))
                              shown))
                   want))))

(defun quire-test-type (line text)
  "Type TEXT as a new line that becomes line LINE (0-based), key by key.
Returns the time of the last key."
  (goto-char (point-min))
  (forward-line (1- line))
  (end-of-line)
  (let (last)
    (dolist (c (cons ?\r (string-to-list text)))
      (let ((last-command-event c)
            (this-command (if (eq c ?\r) 'newline 'self-insert-command)))
        (run-hooks 'pre-command-hook)
        (if (eq c ?\r) (newline) (self-insert-command 1))
        (run-hooks 'post-command-hook))
      (setq last (float-time))
      ;; The writer's next key comes soon: regular timers and the
      ;; server's messages run, idle timers do not.
      (accept-process-output nil 0.02))
    last))

(define-error 'quire-test-no-action "No code action titled so")

(defun quire-test-code-action (title)
  "Run the code action TITLE at point as the writer does: M-x
eglot-code-actions, which asks the server for the actions on the word
at point with the diagnostics Flymake shows there, offers their titles
through `completing-read' and applies the chosen one's edit itself.
Only the pick is scripted. The titles offered are returned."
  (let (offered)
    (cl-letf (((symbol-function 'completing-read)
               (lambda (_prompt collection &rest _)
                 (setq offered (mapcar (lambda (c) (if (consp c) (car c) c)) collection))
                 (or (car (member title offered))
                     (signal 'quire-test-no-action (list title (string-join offered " | ")))))))
      ;; A key press, not a mouse click: eglot then offers its menu in
      ;; the minibuffer, not as a popup menu.
      (let ((last-nonmenu-event ?\r)
            (this-command 'eglot-code-actions))
        (run-hooks 'pre-command-hook)
        (call-interactively #'eglot-code-actions)
        (run-hooks 'post-command-hook)))
    offered))

(defvar quire-test-step "start")

(condition-case err
    (with-timeout (90 (error "did not finish within 90s"))
      (quire-test-log "%s, eglot %s" (emacs-version)
                      (package-version-join (package-desc-version (cadr (assq 'eglot package-alist)))))
      (setq quire-test-step "connect")
      (switch-to-buffer (find-file-noselect quire-test-chapter))
      (run-hooks 'post-command-hook)
      (quire-test-idle-wait "eglot to connect to quire" 30 (lambda () (eglot-current-server)))
      (quire-test-idle-wait "the initialize handshake" 30 (lambda () (eglot--server-capable :hoverProvider)))
      (quire-test-log "ok connect")

      ;; The clean chapter: once its first diagnostics are in, nothing
      ;; is shown.
      (setq quire-test-step "clean")
      (quire-test-idle-wait "the chapter's first diagnostics" 10
                            (lambda () (and (>= quire-test-published 0) flymake-mode)))
      (quire-test-idle-wait "no diagnostics on the clean chapter" 5 (lambda () (quire-test-matches nil)))
      (quire-test-log "ok clean")

      (setq quire-test-step "type")
      (let (want)
        (dolist (ty (quire-test-get quire-test-fixture 'typed))
          (let* ((line (quire-test-get ty 'line))
                 (slip (cl-find line (quire-test-get quire-test-fixture 'slips)
                                :key (lambda (s) (quire-test-get s 'line))))
                 version typed-at)
            (setq typed-at (quire-test-type line (quire-test-get ty 'text))
                  version eglot--versioned-identifier)
            (when slip (setq want (append want (list slip))))
            (quire-test-idle-wait
             (format "the diagnostics after typing line %d" line) 10
             (lambda ()
               (if (< quire-test-published version)
                   (progn (setq quire-test-why (format "diagnostics of version %d shown, the text typed is version %d"
                                                       quire-test-published version))
                          nil)
                 (quire-test-matches want))))
            (quire-test-log "time %s %d ms" (if slip (quire-test-get slip 'code) (format "line-%d" line))
                            (round (* 1000 (- (float-time) typed-at)))))))
      (unless (equal (buffer-substring-no-properties (point-min) (point-max))
                     (quire-test-get quire-test-fixture 'final))
        (error "the buffer after typing:\n%s" (buffer-string)))
      (quire-test-log "ok type")

      ;; Settled: a second on, still one diagnostic per slip at its
      ;; words, none on a decoy, each with its code and a message.
      (setq quire-test-step "settled")
      (let ((until (+ (float-time) 1)))
        (quire-test-idle-wait "a second" 2 (lambda () (> (float-time) until))))
      (unless (quire-test-matches (quire-test-get quire-test-fixture 'slips))
        (error "a second after typing: %s" quire-test-why))
      (dolist (s (quire-test-shown))
        (quire-test-log "seen %s %d:%d %S at %S" (nth 0 s) (nth 1 s) (nth 2 s) (nth 4 s) (nth 3 s))
        (unless (string-match-p (format "\\[%s\\]" (regexp-quote (nth 0 s))) (nth 4 s))
          (error "the message does not name its code: %S" (nth 4 s)))
        (dolist (decoy (quire-test-get quire-test-fixture 'decoys))
          (when (and (= (nth 1 s) (quire-test-get decoy 'line))
                     (< (nth 2 s) (quire-test-get decoy 'charEnd))
                     (> (+ (nth 2 s) (length (nth 3 s))) (quire-test-get decoy 'charCol)))
            (error "a diagnostic on the decoy %S (%s): %S" (quire-test-get decoy 'words)
                   (quire-test-get decoy 'why) s))))
      (quire-test-log "ok settled")

      ;; The fix: point on the name-spelling slip's word, the writer runs
      ;; M-x eglot-code-actions, sees the fixes offered and picks
      ;; fix.title; eglot applies its edit, the change goes to the server
      ;; as the writer's, and once the diagnostics of that version are in
      ;; the fixed slip's is gone and every other slip's is still there.
      (setq quire-test-step "fix")
      (let* ((fix (quire-test-get quire-test-fixture 'fix))
             (line (quire-test-get fix 'line))
             (at (cl-find-if (lambda (s) (and (equal (quire-test-get s 'code) (quire-test-get fix 'code))
                                              (= (quire-test-get s 'line) line)))
                             (quire-test-get quire-test-fixture 'slips)))
             (rest (remq at (quire-test-get quire-test-fixture 'slips)))
             (before eglot--versioned-identifier)
             offered version)
        (unless at (error "no slip %s on line %d in the fixture" (quire-test-get fix 'code) line))
        (goto-char (point-min))
        (forward-line line)
        (forward-char (quire-test-get at 'charCol))
        (setq offered (quire-test-code-action (quire-test-get fix 'title)))
        (dolist (title offered) (quire-test-log "offered %s" title))
        (dolist (want (quire-test-get fix 'offered))
          (unless (member want offered)
            (error "%S not offered at %S; the menu: %s" want (quire-test-get at 'words) (string-join offered " | "))))
        (let ((now (save-excursion
                     (goto-char (point-min))
                     (forward-line line)
                     (buffer-substring-no-properties (line-beginning-position) (line-end-position)))))
          (quire-test-log "after %s" now)
          (unless (equal now (quire-test-get fix 'after))
            (error "line %d after %S: %S, want %S" line (quire-test-get fix 'title) now (quire-test-get fix 'after))))
        (setq version eglot--versioned-identifier)
        (unless (> version before) (error "the buffer did not change"))
        (quire-test-idle-wait
         (format "the diagnostics after %s" (quire-test-get fix 'title)) 10
         (lambda ()
           (if (< quire-test-published version)
               (progn (setq quire-test-why (format "diagnostics of version %d shown, the fixed text is version %d"
                                                   quire-test-published version))
                      nil)
             (quire-test-matches rest))))
        ;; Nothing but the slip's words changed.
        (let ((want (split-string (quire-test-get quire-test-fixture 'final) "\n")))
          (setf (nth line want) (quire-test-get fix 'after))
          (unless (equal (buffer-substring-no-properties (point-min) (point-max)) (string-join want "\n"))
            (error "the buffer after the fix:\n%s" (buffer-string)))))
      (quire-test-log "ok fix")
      (quire-test-log "PASS")
      (let ((server (eglot-current-server)))
        (when server (ignore-errors (eglot-shutdown server))))
      (kill-emacs 0))
  (error
   (quire-test-log "FAIL %s: %s" quire-test-step (error-message-string err))
   (when-let ((server (ignore-errors (eglot-current-server))))
     (with-current-buffer (jsonrpc-events-buffer server)
       (write-region (point-min) (point-max) (concat quire-test-result ".events") nil 'silent)))
   (kill-emacs 1)))

;;; slips.el ends here
