;;; e2e.el --- quire in Emacs with eglot, as a writer uses it  -*- lexical-binding: t; -*-

;; Run by editors/emacs/emacs_test.go:
;;   emacs --batch -l e2e.el
;; (--batch loads no init file; Debian's site files, which tell package.el
;; where elpa-eglot is, still load)
;; with QUIRE_SETUP (editors/emacs/quire.el), QUIRE_BIN, QUIRE_BOOK (the
;; sample book), QUIRE_BOOK2 (a second copy), QUIRE_MODEL_URL and
;; QUIRE_RESULT in the environment. Each step writes
;; "ok <step>" or "FAIL <step>: <why>" to QUIRE_RESULT; the last line is
;; PASS or FAIL. Every wait is bounded, so a hang fails its step, and a
;; step runs only when the steps it builds on passed.
;;
;; The steps check what the writer would see: the buffers' text, the
;; echo area (which in batch mode goes to *Messages*), the *eldoc* buffer
;; and the files a message names. The writer's commands run as they do
;; interactively (M-x eglot-code-actions picking a title, "y" to eglot's
;; question); only the picking and the "y" are scripted.

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

(defvar quire-test-failed nil "The names of the steps that failed.")

(defmacro quire-test-step (name needs timeout &rest body)
  "Run BODY as step NAME, failing it after TIMEOUT seconds.
A step whose NEEDS (names of earlier steps) did not pass is not run."
  (declare (indent 3))
  `(if-let ((missing (cl-intersection ',needs quire-test-failed :test #'equal)))
       (progn (push ,name quire-test-failed)
              (quire-test-log "skipped %s (needs %s)" ,name (string-join missing ", ")))
     (condition-case err
         (progn
           (with-timeout (,timeout (error "step did not finish within %ss" ,timeout))
             ,@body)
           (quire-test-log "ok %s" ,name))
       (error
        (push ,name quire-test-failed)
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

(defun quire-test-visit-file (file)
  "Open FILE as the current buffer in the selected window."
  (switch-to-buffer (find-file-noselect file))
  (run-hooks 'post-command-hook)
  (current-buffer))

(defun quire-test-no-codes (mark)
  "Fail when a message since MARK shows the writer a JSON-RPC error."
  (let ((m (quire-test-messages-since mark)))
    (when (string-match "^.*\\(jsonrpc-error\\|(error -32[0-9]+)\\).*$" m)
      (error "the writer was shown a protocol error: %s" (match-string 0 m)))))

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

(quire-test-step "connect" () 40
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

(quire-test-step "hover" ("connect") 40
  (quire-test-visit quire-test-chapter)
  (deactivate-mark)
  (goto-char (point-min))
  (search-forward "Teodora Quill wrote")
  (goto-char (match-beginning 0))
  (forward-char 3)
  ;; What the writer gets by resting the cursor on the name: eldoc asks
  ;; eglot, which asks quire; the card lands in *eldoc* (M-x
  ;; eldoc-doc-buffer) and its start in the echo area of a terminal
  ;; Emacs (eldoc shows nothing there in batch mode, so *eldoc* is read).
  (eldoc-print-current-symbol-info t)
  (quire-test-wait "the hover card in the *eldoc* buffer" 30
                   (lambda ()
                     (let ((doc (get-buffer "*eldoc*")))
                       (and doc (with-current-buffer doc
                                  (string-match-p "Night clerk of the Harbor Tally" (buffer-string)))))))
  (quire-test-log "  hover: %s" (with-current-buffer "*eldoc*" (car (split-string (string-trim (buffer-string)) "\n")))))

(quire-test-step "dialogue" ("connect") 40
  ;; A line of dialogue: resting on it, the writer reads who speaks it
  ;; and by which tag (eglot 1.9 draws no inlay hints, so the hover is
  ;; where an Emacs writer sees who speaks).
  (quire-test-visit quire-test-chapter)
  (deactivate-mark)
  (with-current-buffer (get-buffer-create "*eldoc*")
    (let ((inhibit-read-only t)) (erase-buffer)))
  (goto-char (point-min))
  (search-forward "“Thirteen,” said Moss.")
  (goto-char (+ (match-beginning 0) 3))
  (eldoc-print-current-symbol-info t)
  (quire-test-wait "who speaks the line, in the *eldoc* buffer" 30
                   (lambda ()
                     (let ((doc (get-buffer "*eldoc*")))
                       (and doc (with-current-buffer doc
                                  (string-match-p "Moss Kettering.* speaks\\." (buffer-string)))))))
  (let ((doc (with-current-buffer "*eldoc*" (buffer-string))))
    (unless (string-match-p "said Moss" doc)
      (error "the hover does not give the tag that decided: %s" doc))
    (quire-test-log "  dialogue: %s" (car (split-string (string-trim doc) "\n")))))

(quire-test-step "settle" ("dialogue") 40
  ;; The line quire only guesses (“Someone has to carry paper.”) settled
  ;; from M-x eglot-code-actions: the writer picks quire's guess, eglot
  ;; writes the speaker line, and the line is then settled: no speaker is
  ;; offered on it. The chapter is put back as it was for the steps after.
  (quire-test-visit quire-test-chapter)
  (deactivate-mark)
  (let ((orig (buffer-string))
        (at (lambda ()
              (goto-char (point-min))
              (search-forward "“Someone has to carry paper.”")
              (goto-char (+ (match-beginning 0) 3)))))
    (funcall at)
    (quire-test-log "  offered: %s"
                    (string-join (quire-test-code-action "\\`Teodora Quill speaks this line\\'") " | "))
    (quire-test-wait "the speaker line written" 20
                     (lambda ()
                       (save-excursion
                         (goto-char (point-min))
                         (search-forward "“Someone has to carry paper.” <!-- speaker: Teodora Quill -->" nil t))))
    ;; Settled: asked again (once eglot has sent the edit), the menu
    ;; offers no speaker for the line; the titles are read from a menu
    ;; that is left without a choice.
    (let ((deadline (+ (float-time) 20)) offered)
      (while (and (or (null offered) (string-match-p "speaks this line" offered))
                  (< (float-time) deadline))
        (accept-process-output nil 0.5)
        (funcall at)
        (setq offered (condition-case e
                          (progn (quire-test-code-action "\\`no such action\\'") nil)
                        (quire-test-no-action (nth 2 e)))))
      (when (or (null offered) (string-match-p "speaks this line" offered))
        (error "the line still offers its speakers after the speaker line was written: %s" offered))
      (quire-test-log "  settled, offered: %s" offered))
    (let ((inhibit-read-only t))
      (erase-buffer)
      (insert orig))
    (set-buffer-modified-p nil)))

(quire-test-step "ask" ("connect") 40
  (quire-test-visit quire-test-chapter)
  (quire-test-region "Teodora Quill wrote by it the way she always did")
  (let ((mark (length (quire-test-messages))))
    (quire-test-code-action "\\`Ask Continuity Editor about this\\'")
    (deactivate-mark)
    (let* ((shown (quire-test-wait
                   "the answer in the echo area (window/showMessage)" 20
                   (lambda ()
                     (let ((m (quire-test-messages-since mark)))
                       (and (string-match-p "Continuity Editor answered: SCRIPTED-ANSWER: her eyes are grey" m)
                            (string-match "Full answer: \\(/[^\n]+\\.md\\)" m)
                            m)))))
           (file (progn (string-match "Full answer: \\(/[^\n]+\\.md\\)" shown)
                        (match-string 1 shown))))
      ;; The answer's start is one line: its newlines folded to spaces.
      (unless (string-match-p "answered: SCRIPTED-ANSWER: her eyes are grey throughout\\. I proposed" shown)
        (error "the answer's start is not on one line in: %s" shown))
      (unless (string-match-p "Asking the Continuity Editor" shown)
        (error "no word that the ask started in: %s" shown))
      (unless (file-exists-p file)
        (error "the answer document %s does not exist" file))
      (when (string-prefix-p quire-test-book (expand-file-name file))
        (error "the answer document %s is inside the book" file))
      (quire-test-no-codes mark)
      (setq quire-test-answer file)
      (quire-test-log "  answer: %s" file))))

(defun quire-test-server-of (rel)
  (with-current-buffer (find-file-noselect (expand-file-name rel quire-test-book))
    (eglot-current-server)))

(quire-test-step "answer-doc" ("ask") 30
  ;; The writer opens the path the message gave: the answer and the
  ;; proposals it made are there, and the book's quire manages it.
  (quire-test-visit-file quire-test-answer)
  (dolist (want '("SCRIPTED-ANSWER: her eyes are grey" "Pin down her eye colour" "Say whose coat it is"))
    (goto-char (point-min))
    (unless (search-forward want nil t)
      (error "the answer document lacks %S:\n%s" want (buffer-string))))
  (let ((server (quire-test-wait "eglot to manage the answer document" 20
                                 (lambda () (eglot-current-server)))))
    (unless (eq server (quire-test-server-of quire-test-chapter))
      (error "the answer document has its own quire, not the book's: %S"
             (project-root (eglot--project server))))))

(quire-test-step "apply" ("answer-doc") 40
  ;; From the answer document, as its "Proposed changes" section says.
  (let ((mark (length (quire-test-messages))))
    (quire-test-visit-file quire-test-answer)
    (deactivate-mark)
    (goto-char (point-min))
    (search-forward "Pin down her eye colour")
    (quire-test-code-action "\\`Apply proposal: .*Pin down her eye colour")
    (let ((buf (quire-test-wait "the entry's buffer" 20
                                (lambda () (find-buffer-visiting
                                            (expand-file-name quire-test-entry quire-test-book))))))
      (quire-test-wait "the proposal's text in the entry's buffer" 20
                       (lambda () (with-current-buffer buf
                                    (save-excursion (goto-char (point-min))
                                                    (search-forward "PROPOSED-EYES" nil t)))))
      (unless (buffer-modified-p buf)
        (error "the entry's buffer is not modified after the edit"))
      (with-temp-buffer
        (insert-file-contents (buffer-file-name buf))
        (when (search-forward "PROPOSED-EYES" nil t)
          (error "the edit reached the file on disk before the writer saved"))))
    (quire-test-wait "the message that the proposal was applied" 20
                     (lambda () (let ((m (quire-test-messages-since mark)))
                                  (and (string-match-p "Applied .*teodora-quill/index\\.md" m)
                                       (string-match-p "review and save\\." m)))))
    (quire-test-no-codes mark)))

(quire-test-step "stale" ("apply") 40
  ;; The second proposal edits the same entry, which changed when the
  ;; first was applied: quire refuses it and says why. This time from the
  ;; entry itself, where its pending proposals are offered too.
  (let* ((buf (quire-test-visit quire-test-entry))
         (before (with-current-buffer buf (buffer-string)))
         (mark (length (quire-test-messages))))
    (deactivate-mark)
    (goto-char (point-min))
    (quire-test-code-action "\\`Apply proposal: .*Say whose coat it is")
    (quire-test-wait "a warning that the entry changed since the proposal" 20
                     (lambda () (string-match-p "Server reports (type=2): .*index\\.md.*changed since"
                                                (quire-test-messages-since mark))))
    (unless (equal before (with-current-buffer buf (buffer-string)))
      (error "the stale proposal changed the buffer"))
    (quire-test-no-codes mark)))

(quire-test-step "cursor-action" ("connect") 40
  ;; With no region, eglot asks for the actions of the thing at point;
  ;; on a blank line that is the cursor alone, and the chapter's own
  ;; actions are offered.
  (quire-test-visit quire-test-chapter)
  (deactivate-mark)
  (goto-char (point-min))
  (search-forward "## The Night Count\n")
  (let ((mark (length (quire-test-messages))))
    (quire-test-code-action "\\`Continuity Editor: Continuity check\\'")
    (let* ((shown (quire-test-wait
                   "the check's answer in the echo area" 20
                   (lambda ()
                     (let ((m (quire-test-messages-since mark)))
                       (and (string-match-p "Continuity Editor answered: SCRIPTED-CHECK" m)
                            (string-match "Full answer: \\(/[^\n]+\\.md\\)" m)
                            m)))))
           (file (progn (string-match "Full answer: \\(/[^\n]+\\.md\\)" shown)
                        (match-string 1 shown))))
      (with-temp-buffer
        (insert-file-contents file)
        ;; The answer shows the action's name, not its long prompt.
        (unless (search-forward "> Continuity check" nil t)
          (error "the answer document does not name the action:\n%s" (buffer-string)))
        (goto-char (point-min))
        (when (search-forward "Run the advisor action" nil t)
          (error "the answer document repeats the action's prompt:\n%s" (buffer-string)))))
    (quire-test-no-codes mark))
  ;; For the record: what M-x eglot-code-actions offers with the cursor
  ;; on a word (eglot sends the word's bounds).
  (goto-char (point-min))
  (search-forward "Teodora Quill wrote")
  (goto-char (+ (match-beginning 0) 3))
  (let ((titles (mapcar (lambda (a) (plist-get a :title))
                        (apply #'eglot-code-actions (eglot--region-bounds)))))
    (quire-test-log "  on a word: %s" (string-join titles " | "))))

(defun quire-test-shown-file (text regexp)
  "The file named in TEXT by REGEXP's first group; it must exist."
  (unless (string-match regexp text)
    (error "no file named in: %s" text))
  (let ((file (match-string 1 text)))
    (unless (file-exists-p file)
      (error "%s, named in the message, does not exist" file))
    (when (string-prefix-p quire-test-book (expand-file-name file))
      (error "%s is inside the book" file))
    file))

;; Commands whose result eglot 1.9 shows nowhere: each must end in a
;; message (eglot cannot open a document for the server).
(quire-test-step "look-up" ("connect") 30
  (quire-test-visit quire-test-chapter)
  (deactivate-mark)
  (goto-char (point-min))
  (search-forward "Teodora Quill wrote")
  (goto-char (+ (match-beginning 0) 3))
  (let ((mark (length (quire-test-messages)))
        (entry (expand-file-name quire-test-entry quire-test-book)))
    (quire-test-code-action "\\`Look up Teodora Quill\\'")
    (quire-test-wait "the entry's summary and file in the echo area" 20
                     (lambda () (let ((m (quire-test-messages-since mark)))
                                  (and (string-match-p "Teodora Quill.*Night clerk of the Harbor Tally" m)
                                       (string-match-p (regexp-quote entry) m)))))
    (quire-test-no-codes mark)))

(quire-test-step "peek" ("connect") 30
  ;; No persona in the action: the one configured in
  ;; eglot-workspace-configuration.
  (quire-test-visit quire-test-chapter)
  (quire-test-region "Teodora Quill wrote by it the way she always did")
  (let ((mark (length (quire-test-messages))))
    (quire-test-code-action "\\`Peek prompt\\'")
    (deactivate-mark)
    (let* ((shown (quire-test-wait "the prompt's file in the echo area" 20
                                   (lambda () (let ((m (quire-test-messages-since mark)))
                                                (and (string-match-p "nothing was sent" m) m)))))
           (file (quire-test-shown-file shown "\\(/[^\n]+\\.json\\)")))
      (unless (string-match-p "Continuity Editor" shown)
        (error "the prompt is not the configured persona's: %s" shown))
      (with-temp-buffer
        (insert-file-contents file)
        (unless (search-forward "Continuity Editor" nil t)
          (error "the prompt in %s is not the Continuity Editor's" file))))
    (quire-test-no-codes mark)))

(quire-test-step "explicate" ("connect") 30
  (quire-test-visit quire-test-entry)
  (quire-test-region "She counts things when she is frightened")
  (let ((mark (length (quire-test-messages))))
    (quire-test-code-action "\\`Where is this established\\?\\'")
    (deactivate-mark)
    (let ((shown (quire-test-wait "the passages, or their absence, in the echo area" 20
                                  (lambda () (let ((m (quire-test-messages-since mark)))
                                               (and (string-match-p "She counts things[^\n]* is established\\|establishes \"She counts things" m) m))))))
      (when (string-match-p "All passages: " shown)
        (quire-test-shown-file shown "All passages: \\(/[^\n]+\\.md\\)")))
    (quire-test-no-codes mark)))

;; The book map (quire.bookMap), from the code action on a chapter's
;; title: eglot 1.9 cannot open a page, so the message names the file.
(quire-test-step "book-map" ("connect") 30
  (quire-test-visit quire-test-chapter)
  (deactivate-mark)
  (goto-char (point-min))
  (search-forward "# Thirteen Strokes")
  (let ((mark (length (quire-test-messages))))
    (quire-test-code-action "\\`Open the book map\\'")
    (let* ((shown (quire-test-wait "the map's file in the echo area" 20
                                   (lambda () (let ((m (quire-test-messages-since mark)))
                                                (and (string-match-p "The book map (5 chapters, 23 codex entries mentioned) is in" m) m)))))
           (file (quire-test-shown-file shown "is in \\(/[^\n]+\\.html\\): open it in your browser")))
      (with-temp-buffer
        (insert-file-contents file)
        (unless (and (search-forward "The Thirteenth Bell" nil t) (search-forward "Moss Kettering" nil t))
          (error "the map in %s is not the sample book's" file))))
    (quire-test-no-codes mark)))

;; The standard manuscript (quire.build), from the code action on a
;; chapter's title: the message names the DOCX, last, in quire/<book
;; folder> of the Documents folder (the test's own, XDG_DOCUMENTS_DIR).
(quire-test-step "build" ("connect") 60
  (quire-test-visit quire-test-chapter)
  (deactivate-mark)
  (goto-char (point-min))
  (search-forward "# Thirteen Strokes")
  (let ((mark (length (quire-test-messages))))
    (quire-test-code-action "\\`quire: Build manuscript (DOCX)\\'")
    (let* ((shown (quire-test-wait "the manuscript's file in the echo area" 30
                                   (lambda () (let ((m (quire-test-messages-since mark)))
                                                (and (string-match-p "quire built the manuscript (DOCX, manuscript preset, 5 chapters, about 4,200 words): " m) m)))))
           (file (quire-test-shown-file shown "words): \\(/[^\n]+\\.docx\\)")))
      (unless (equal file (expand-file-name "quire/book/the-thirteenth-bell.docx" (getenv "XDG_DOCUMENTS_DIR")))
        (error "the manuscript %s is not in the Documents folder" file))
      (with-temp-buffer
        (set-buffer-multibyte nil)
        (insert-file-contents-literally file)
        (unless (looking-at "PK")
          (error "%s is not a DOCX (a zip)" file))))
    (quire-test-no-codes mark)))

;; M-x quire-build: the format asked for, the file named last with the
;; words it holds; with C-u it is opened too (here by a
;; quire-open-function that records it), and without a display the
;; writer is told why and where the file is; M-x quire-reveal-build
;; shows it in its folder, in Dired.
(quire-test-step "build-command" ("connect") 60
  (quire-test-visit quire-test-chapter)
  (let* ((mark (length (quire-test-messages)))
         (opened nil)
         (quire-open-function (lambda (f) (setq opened f) t))
         (want (expand-file-name "quire/book/the-thirteenth-bell.epub" (getenv "XDG_DOCUMENTS_DIR"))))
    (setq quire-last-build nil)
    ;; The writer types epub at the prompt, after C-u M-x quire-build.
    (cl-letf (((symbol-function 'completing-read) (lambda (&rest _) "epub")))
      (let ((current-prefix-arg '(4)))
        (call-interactively #'quire-build)))
    (quire-test-wait "the EPUB opened" 30 (lambda () opened))
    (unless (equal opened want)
      (error "opened %s, not the EPUB in the Documents folder %s" opened want))
    (let ((m (quire-test-messages-since mark)))
      (unless (string-match-p (concat "quire built EPUB (reader, 5 chapters, [0-9],[0-9][0-9][0-9] words as built: "
                                      "the prose, without chapter titles and scene headings): " (regexp-quote want))
                              m)
        (error "no message naming the EPUB: %s" m))
      (unless (string-match-p (concat "quire opened " (regexp-quote want)) m)
        (error "no message that it was opened: %s" m)))
    ;; No display, no opener of the writer's own: said, with the file.
    (let ((mark (length (quire-test-messages)))
          (quire-open-function nil)
          (process-environment (append '("DISPLAY" "WAYLAND_DISPLAY") process-environment)))
      (quire-build "epub" t)
      (quire-test-wait "the message that the file cannot be opened" 30
                       (lambda () (string-match-p
                                   (concat "quire could not open the file: there is no display to open it on "
                                           "(neither DISPLAY nor WAYLAND_DISPLAY is set, as over SSH or in a text console)\\. "
                                           "Open it yourself: " (regexp-quote want))
                                   (quire-test-messages-since mark)))))
    (quire-reveal-build)
    (unless (and (derived-mode-p 'dired-mode)
                 (equal (dired-get-filename nil t) want))
      (error "quire-reveal-build shows %s at %s, not the EPUB" (buffer-name) (dired-get-filename nil t)))
    (quire-test-no-codes mark)))

;; The health report (quire.doctor), from the code action in any file of
;; the book: eglot 1.9 opens no document for the server, so it is one
;; message, its heading counting the problems, a line per check. The
;; scripted model lists its models and the key comes from the variable
;; the settings name: all is well, and the key line names the variable,
;; never the key.
(quire-test-step "health" ("connect") 30
  (quire-test-visit quire-test-chapter)
  (deactivate-mark)
  (goto-char (point-min))
  (let ((mark (length (quire-test-messages))))
    (quire-test-code-action "\\`quire: Show health report\\'")
    (let ((shown (quire-test-wait "the health report in the echo area" 20
                                  (lambda () (let ((m (quire-test-messages-since mark)))
                                               (and (string-match-p "quire health report, all is well" m) m))))))
      (dolist (line (list (concat "ok       book: " (directory-file-name quire-test-book))
                          "ok       model: answers at " "model scripted is there"
                          "ok       key: from the QUIRE_TEST_KEY variable"))
        (unless (string-match-p (regexp-quote line) shown)
          (error "the report has no %S: %s" line shown)))
      (when (string-match-p "scripted-key" shown)
        (error "the report shows the key: %s" shown)))
    (quire-test-no-codes mark)))

;; The word counts (quire.wordCounts), from the code action "Word counts
;; and goals" in a chapter: eglot shows no code lens, so the writer reads
;; the chapter's and the book's counts in one message.
(quire-test-step "word-counts" ("connect") 30
  (quire-test-visit quire-test-chapter)
  (deactivate-mark)
  (goto-char (point-min))
  (let ((mark (length (quire-test-messages))))
    (quire-test-code-action "\\`Word counts and goals\\'")
    (let ((shown (quire-test-wait "the word counts in the echo area" 20
                                  (lambda () (let ((m (quire-test-messages-since mark)))
                                               (and (string-match-p (regexp-quote (getenv "QUIRE_WANT_CHAPTER")) m) m))))))
      (unless (string-match-p (regexp-quote (getenv "QUIRE_WANT_BOOK")) shown)
        (error "the message has no %S: %s" (getenv "QUIRE_WANT_BOOK") shown))
      (unless (string-match-p "Today \\+0" shown)
        (error "the message has no today's words: %s" shown)))
    (quire-test-no-codes mark)))

(quire-test-step "plain-eglot" () 45
  ;; A writer with no quire.el, only the README's eglot-server-programs
  ;; line: eglot takes the chapter's own folder as the root, and quire
  ;; finds the book above it.
  (remove-hook 'project-find-functions #'quire-project-find)
  (let* ((book2 (file-name-as-directory (getenv "QUIRE_BOOK2")))
         (buf (progn (switch-to-buffer (find-file-noselect (expand-file-name quire-test-chapter book2)))
                     (run-hooks 'post-command-hook)
                     (current-buffer)))
         (server (progn (unless (eglot-current-server) (eglot-ensure) (run-hooks 'post-command-hook))
                        (quire-test-wait "eglot to connect" 30 (lambda () (eglot-current-server))))))
    (let ((root (file-name-as-directory (expand-file-name (project-root (eglot--project server))))))
      (unless (equal root (expand-file-name "manuscript/" book2))
        (error "eglot's root is %s, expected the chapter's folder" root)))
    (with-current-buffer (get-buffer-create "*eldoc*")
      (let ((inhibit-read-only t)) (erase-buffer)))
    (with-current-buffer buf
      (goto-char (point-min))
      (search-forward "Teodora Quill wrote")
      (goto-char (+ (match-beginning 0) 3))
      (eldoc-print-current-symbol-info t)
      (quire-test-wait "the hover card in the *eldoc* buffer" 30
                       (lambda ()
                         (with-current-buffer "*eldoc*"
                           (string-match-p "Night clerk of the Harbor Tally" (buffer-string))))))))

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
