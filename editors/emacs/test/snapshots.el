;;; snapshots.el --- a deleted paragraph taken back from quire's snapshots, in Emacs  -*- lexical-binding: t; -*-

;; Run by editors/emacs/snapshots_test.go:
;;   emacs --batch -l snapshots.el
;; with QUIRE_SETUP, QUIRE_BIN, QUIRE_CHAPTER (a chapter of the sample
;; book), QUIRE_PARAGRAPH (a paragraph of it) and QUIRE_RESULT in the
;; environment. The writer deletes the paragraph and saves; quire keeps
;; the save. With the cursor where the paragraph was, M-x
;; eglot-code-actions offers "quire: Restore the paragraph here as of
;; …"; picked, the paragraph is back in the buffer; C-x C-s keeps it.
;; Writes "ok <step>", "offered <title>" and PASS or "FAIL <step>: <why>"
;; to QUIRE_RESULT.

;;; Code:

(load (expand-file-name "harness.el" (file-name-directory load-file-name)) nil t)

(defun quire-test-wait (what timeout pred)
  "Wait up to TIMEOUT seconds for PRED; its value, or an error naming WHAT."
  (let ((deadline (+ (float-time) timeout)) v)
    (while (and (not (setq v (funcall pred))) (< (float-time) deadline))
      (accept-process-output nil 0.05))
    (or v (error "timed out after %ss waiting for %s" timeout what))))

(defun quire-test-versions ()
  "How many versions quire keeps of the current buffer's chapter."
  (let ((r (jsonrpc-request (eglot-current-server) :workspace/executeCommand
                            `(:command "quire.snapshotList"
                              :arguments [(:uri ,(eglot--path-to-uri (buffer-file-name)))]))))
    (length (plist-get r :versions))))

(defun quire-test-code-action (prefix)
  "Run the code action whose title starts with PREFIX as the writer does:
M-x eglot-code-actions, picking the title; y to eglot's question. The
titles offered are returned."
  (let (offered)
    (cl-letf* (((symbol-function 'completing-read)
                (lambda (_prompt collection &rest _)
                  (setq offered (mapcar (lambda (c) (if (consp c) (car c) c)) collection))
                  (or (cl-find-if (lambda (title) (string-prefix-p prefix title)) offered)
                      (error "no action starts with %S among %S" prefix offered))))
               ((symbol-function 'y-or-n-p) (lambda (_prompt) t)))
      (let ((last-nonmenu-event ?\r))
        (call-interactively #'eglot-code-actions)))
    offered))

(defvar quire-test-step "start")

(condition-case err
    (with-timeout (120 (error "did not finish within 120s"))
      (setq quire-test-step "connect")
      (switch-to-buffer (find-file-noselect (getenv "QUIRE_CHAPTER")))
      (run-hooks 'post-command-hook)
      (quire-test-wait "eglot to connect to quire" 30 (lambda () (eglot-current-server)))
      (quire-test-wait "the chapter kept as it was opened" 30 (lambda () (>= (quire-test-versions) 1)))
      (quire-test-log "ok connect")

      (setq quire-test-step "delete-and-save")
      (let ((para (getenv "QUIRE_PARAGRAPH")))
        (goto-char (point-min))
        (unless (search-forward para nil t)
          (error "the chapter has no paragraph %S" para))
        (delete-region (line-beginning-position) (min (point-max) (1+ (line-end-position 2))))
        (save-buffer)
        (quire-test-wait "the save kept" 30 (lambda () (>= (quire-test-versions) 2)))
        (quire-test-log "ok delete-and-save")

        (setq quire-test-step "restore")
        (dolist (title (quire-test-code-action "quire: Restore the paragraph here as of "))
          (quire-test-log "offered %s" title))
        (quire-test-wait "the paragraph back in the buffer" 20
                         (lambda () (save-excursion (goto-char (point-min)) (search-forward para nil t))))
        (save-buffer)
        (with-temp-buffer
          (insert-file-contents (getenv "QUIRE_CHAPTER"))
          (unless (search-forward para nil t)
            (error "the file lacks the paragraph after C-x C-s")))
        (quire-test-log "ok restore"))
      (quire-test-log "PASS")
      (let ((server (eglot-current-server)))
        (when server (ignore-errors (eglot-shutdown server))))
      (kill-emacs 0))
  (error
   (quire-test-log "FAIL %s: %s" quire-test-step (error-message-string err))
   (kill-emacs 1)))

;;; snapshots.el ends here
