;;; e2e.el --- quire in Emacs with eglot, as a writer uses it  -*- lexical-binding: t; -*-

;; Run by editors/emacs/emacs_test.go:
;;   emacs --batch -l e2e.el
;; (--batch loads no init file; Debian's site files, which tell package.el
;; where elpa-eglot is, still load)
;; with QUIRE_SETUP (editors/emacs/quire.el), QUIRE_BIN, QUIRE_BOOK,
;; QUIRE_MODEL_URL and QUIRE_RESULT in the environment. Each step writes
;; "ok <step>" or "FAIL <step>: <why>" to QUIRE_RESULT; the last line is
;; PASS or FAIL. Every wait is bounded, so a hang fails its step.
;;
;; The steps check what the writer would see: the buffer's text, the
;; echo area (which in batch mode goes to *Messages*), the *eldoc* buffer
;; and the buffer that is current after an action.

;;; Code:

(require 'package)
(package-initialize)
(require 'cl-lib)
(require 'subr-x)

(defvar quire-test-book (file-name-as-directory (getenv "QUIRE_BOOK")))
(defvar quire-test-result (getenv "QUIRE_RESULT"))

(load (getenv "QUIRE_SETUP") nil t)

(setq quire-program (getenv "QUIRE_BIN"))
(setq quire-initialization-options
      `(:provider (:base_url ,(getenv "QUIRE_MODEL_URL") :model "scripted"
                   :api_key_env "QUIRE_TEST_KEY" :retries 0)))
;; Sent as workspace/didChangeConfiguration, over the options above.
(setq-default eglot-workspace-configuration '(:quire (:persona "continuity-editor")))
;; A synchronous request (code actions, a command) waits at most this long.
(setq jsonrpc-default-request-timeout 30)
(setq eglot-connect-timeout 30)
;; Keep the events buffer for the failure report.
(setq eglot-events-buffer-size 2000000)

(defun quire-test-log (fmt &rest args)
  (let ((line (apply #'format fmt args)))
    (write-region (concat line "\n") nil quire-test-result 'append 'silent)))

(defun quire-test-messages ()
  (with-current-buffer (messages-buffer) (buffer-string)))

(defun quire-test-wait (what timeout pred)
  "Wait up to TIMEOUT seconds for PRED to return non-nil; its value.
Signals an error naming WHAT when it does not."
  (let ((deadline (+ (float-time) timeout)) v)
    (while (and (not (setq v (funcall pred)))
                (< (float-time) deadline))
      (accept-process-output nil 0.05))
    (or v (error "timed out after %ss waiting for %s" timeout what))))

(defvar quire-test-failed nil)

(defmacro quire-test-step (name timeout &rest body)
  "Run BODY as step NAME, failing it after TIMEOUT seconds.
Once a step has failed the rest are not run: each builds on the last."
  (declare (indent 2))
  `(if quire-test-failed
       (quire-test-log "skipped %s (an earlier step failed)" ,name)
     (condition-case err
         (progn
           (with-timeout (,timeout (error "step did not finish within %ss" ,timeout))
             ,@body)
           (quire-test-log "ok %s" ,name))
       (error
        (setq quire-test-failed t)
        (quire-test-log "FAIL %s: %s" ,name (error-message-string err))))))

(defun quire-test-messages-since (mark)
  (let ((all (quire-test-messages)))
    (substring all (min mark (length all)))))

(define-error 'quire-test-no-action "No code action matches")

(defun quire-test-code-action (title-regexp)
  "Run the code action whose title matches TITLE-REGEXP as the writer
does: M-x eglot-code-actions (on the region when it is active), picking
the title from the menu. Any error is shown as Emacs's command loop
shows it: in the echo area. The titles offered are returned."
  (let (offered)
    (cl-letf* (((symbol-function 'completing-read)
                (lambda (_prompt collection &rest _)
                  (setq offered (mapcar (lambda (c) (if (consp c) (car c) c)) collection))
                  (or (cl-find-if (lambda (title) (string-match-p title-regexp title)) offered)
                      (signal 'quire-test-no-action
                              (list title-regexp (string-join offered " | "))))))
               ;; The writer answers y to "Server wants to edit ... Proceed?".
               ((symbol-function 'y-or-n-p)
                (lambda (prompt) (message "%sy" prompt) t)))
      ;; A key press, not a mouse click: eglot then offers its menu in
      ;; the minibuffer.
      (let ((last-nonmenu-event ?\r))
        (condition-case err
            (call-interactively #'eglot-code-actions)
          (quire-test-no-action (signal (car err) (cdr err)))
          ;; What Emacs's command loop does with a command's error.
          (error (message "%s" (error-message-string err))))))
    offered))

(defun quire-test-visit (rel)
  "Open REL of the book as the current buffer in the selected window."
  (switch-to-buffer (find-file-noselect (expand-file-name rel quire-test-book)))
  ;; The command loop runs this after C-x C-f; eglot-ensure connects
  ;; from it.
  (run-hooks 'post-command-hook)
  (current-buffer))

(defun quire-test-region (text)
  "Select the first TEXT in the current buffer, as the writer would."
  (goto-char (point-min))
  (unless (search-forward text nil t)
    (error "%S is not in %s" text (buffer-name)))
  (set-mark (match-beginning 0))
  (goto-char (match-end 0))
  (activate-mark)
  (transient-mark-mode 1))

(defvar quire-test-chapter "manuscript/01-thirteen-strokes.md")
(defvar quire-test-entry "codex/characters/teodora-quill/index.md")
(defvar quire-test-answer nil "The answer document's file name.")

(write-region "" nil quire-test-result nil 'silent)

(quire-test-step "connect" 40
  (quire-test-visit quire-test-chapter)
  (let ((server (quire-test-wait "eglot to connect to quire" 30
                                 (lambda () (eglot-current-server)))))
    (quire-test-wait "the initialize handshake" 30
                     (lambda () (eglot--server-capable :hoverProvider)))
    (let ((root (file-name-as-directory (expand-file-name (project-root (eglot--project server))))))
      (unless (equal root quire-test-book)
        (error "eglot's project root is %s, not the book %s" root quire-test-book)))
    (unless (string-match-p "quire" (string-join (process-command (jsonrpc--process server)) " "))
      (error "the server is %S" (process-command (jsonrpc--process server))))))

(quire-test-step "hover" 40
  (quire-test-visit quire-test-chapter)
  (deactivate-mark)
  (goto-char (point-min))
  (search-forward "Teodora Quill wrote")
  (goto-char (match-beginning 0))
  (forward-char 3)
  (let ((mark (length (quire-test-messages))))
    ;; What the writer gets by resting the cursor on the name: eldoc asks
    ;; eglot, which asks quire; the card lands in *eldoc* (M-x
    ;; eldoc-doc-buffer) and its start in the echo area.
    (eldoc-print-current-symbol-info t)
    (quire-test-wait "the hover card in the *eldoc* buffer" 30
                     (lambda ()
                       (let ((doc (get-buffer "*eldoc*")))
                         (and doc (with-current-buffer doc
                                    (string-match-p "Night clerk of the Harbor Tally" (buffer-string)))))))
    (quire-test-log "  hover: %s" (with-current-buffer "*eldoc*" (car (split-string (string-trim (buffer-string)) "\n"))))))

(quire-test-step "ask" 60
  (quire-test-visit quire-test-chapter)
  (quire-test-region "Teodora Quill wrote by it the way she always did")
  (let ((mark (length (quire-test-messages))))
    (quire-test-code-action "\\`Ask Continuity Editor about this\\'")
    (deactivate-mark)
    (let* ((shown (quire-test-wait
                   "the answer in the echo area (window/showMessage)" 40
                   (lambda ()
                     (let ((m (quire-test-messages-since mark)))
                       (and (string-match-p "Continuity Editor answered: SCRIPTED-ANSWER: her eyes are grey" m)
                            (string-match "Full answer: \\(/[^\n]+\\.md\\)" m)
                            m)))))
           (file (progn (string-match "Full answer: \\(/[^\n]+\\.md\\)" shown)
                        (match-string 1 shown))))
      (unless (string-match-p "Asking the Continuity Editor" shown)
        (error "no word that the ask started in: %s" shown))
      (unless (file-exists-p file)
        (error "the answer document %s does not exist" file))
      (when (string-prefix-p quire-test-book (expand-file-name file))
        (error "the answer document %s is inside the book" file))
      (setq quire-test-answer file)
      (quire-test-log "  answer: %s" file))))

(quire-test-step "answer-doc" 30
  ;; The writer opens the path the message gave: the answer and the
  ;; proposals it made are there.
  (switch-to-buffer (find-file-noselect quire-test-answer))
  (dolist (want '("SCRIPTED-ANSWER: her eyes are grey" "Pin down her eye colour"))
    (goto-char (point-min))
    (unless (search-forward want nil t)
      (error "the answer document lacks %S:\n%s" want (buffer-string)))))

(quire-test-step "apply" 40
  (let ((buf (quire-test-visit quire-test-entry))
        (mark (length (quire-test-messages))))
    (deactivate-mark)
    (goto-char (point-min))
    (quire-test-wait "eglot to manage the entry" 20 (lambda () (eglot-current-server)))
    (quire-test-code-action "\\`Apply proposal: .*Pin down her eye colour")
    (quire-test-wait "the proposal's text in the entry's buffer" 20
                     (lambda () (with-current-buffer buf
                                  (save-excursion (goto-char (point-min))
                                                  (search-forward "PROPOSED-EYES" nil t)))))
    (unless (buffer-modified-p buf)
      (error "the entry's buffer is not modified after the edit"))
    (with-temp-buffer
      (insert-file-contents (buffer-file-name buf))
      (when (search-forward "PROPOSED-EYES" nil t)
        (error "the edit reached the file on disk before the writer saved")))
    (quire-test-wait "the message that the proposal was applied" 20
                     (lambda () (let ((m (quire-test-messages-since mark)))
                                  (and (string-match-p "Applied .*index\\.md" m)
                                       (string-match-p "review and save\\." m)))))))

(quire-test-step "stale" 40
  ;; The second proposal edits the same entry, which changed when the
  ;; first was applied: quire refuses it and says why.
  (let* ((buf (quire-test-visit quire-test-entry))
         (before (with-current-buffer buf (buffer-string)))
         (mark (length (quire-test-messages))))
    (goto-char (point-min))
    (quire-test-code-action "\\`Apply proposal: .*Say whose coat it is")
    (quire-test-wait "a message that the entry changed since the proposal" 20
                     (lambda () (string-match-p "Server reports (type=2): .*changed since"
                                                (quire-test-messages-since mark))))
    (unless (equal before (with-current-buffer buf (buffer-string)))
      (error "the stale proposal changed the buffer"))))

(quire-test-log (if quire-test-failed "FAIL" "PASS"))

;; The eglot events and the messages, for the test's failure report.
(let ((server (ignore-errors (with-current-buffer (find-file-noselect (expand-file-name quire-test-chapter quire-test-book))
                               (eglot-current-server)))))
  (when server
    (with-current-buffer (jsonrpc-events-buffer server)
      (write-region nil nil (concat quire-test-result ".events") nil 'silent))
    (ignore-errors (eglot-shutdown server))))
(write-region (quire-test-messages) nil (concat quire-test-result ".messages") nil 'silent)
(kill-emacs (if quire-test-failed 1 0))
;;; e2e.el ends here
