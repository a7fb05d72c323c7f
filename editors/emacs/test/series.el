;;; series.el --- a book of a series in Emacs with eglot  -*- lexical-binding: t; -*-

;; Run by editors/emacs/series_test.go:
;;   emacs --batch -l series.el
;; with QUIRE_SETUP (editors/emacs/quire.el), QUIRE_BIN, QUIRE_CHAPTER (a
;; chapter of a trusted book whose quire.yaml names a series folder
;; beside it), QUIRE_SERIES_FILE (the series file that defines Ilse
;; Dorn) and QUIRE_RESULT in the environment. The writer hovers a name
;; the series alone defines, goes to its definition (M-.), which opens
;; the series file, and there hovers a [[link]] and a name: the book's
;; quire manages the series file (no second quire starts for the series
;; folder, which looks like a book: it has a codex/) and shows the cards
;; of the book's canon. Writes "ok <step>" or "FAIL <step>: <why>" to
;; QUIRE_RESULT, then PASS or FAIL.

;;; Code:

(load (expand-file-name "harness.el" (file-name-directory load-file-name)) nil t)

(defvar quire-test-chapter (getenv "QUIRE_CHAPTER"))
(defvar quire-test-series-file (getenv "QUIRE_SERIES_FILE"))

(defun quire-test-wait (what timeout pred)
  "Wait up to TIMEOUT seconds for PRED to return non-nil; its value."
  (let ((deadline (+ (float-time) timeout)) v)
    (while (and (not (setq v (funcall pred))) (< (float-time) deadline))
      (accept-process-output nil 0.05))
    (or v (error "timed out after %ss waiting for %s" timeout what))))

(defvar quire-test-failed nil "The names of the steps that failed.")

(defmacro quire-test-step (name needs timeout &rest body)
  "Run BODY as step NAME, failing it after TIMEOUT seconds; a step whose
NEEDS did not pass is not run."
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

(defun quire-test-goto (text offset)
  "Put point OFFSET characters into the first TEXT of the buffer."
  (goto-char (point-min))
  (unless (search-forward text nil t)
    (error "%S is not in %s" text (buffer-name)))
  (goto-char (+ (match-beginning 0) offset)))

(defun quire-test-card (what regexps)
  "The card eldoc shows at point once it matches every one of REGEXPS,
asked again while it does not (a hover before the book and its series
are read answers without them)."
  (let (card)
    (quire-test-wait
     what 20
     (lambda ()
       ;; eldoc makes *eldoc* itself: only one it made is emptied.
       (when-let ((doc (get-buffer "*eldoc*")))
         (with-current-buffer doc (let ((inhibit-read-only t)) (erase-buffer))))
       (eldoc-print-current-symbol-info t)
       (let ((deadline (+ (float-time) 2)))
         (while (and (< (float-time) deadline)
                     (not (setq card (when-let ((doc (get-buffer "*eldoc*")))
                                      (with-current-buffer doc
                                       (and (cl-every (lambda (re) (string-match-p re (buffer-string)))
                                                      regexps)
                                            (buffer-string)))))))
           (accept-process-output nil 0.05)))
       card))
    card))

(defun quire-test-quire-servers ()
  "Every live quire server eglot runs."
  (let (all)
    (maphash (lambda (_project servers)
               (dolist (s servers)
                 (when (and (jsonrpc-running-p s)
                            (string-match-p "quire" (string-join (process-command (jsonrpc--process s)) " ")))
                   (push s all))))
             eglot--servers-by-project)
    (delete-dups all)))

(defun quire-test-messages ()
  (with-current-buffer (messages-buffer) (buffer-string)))

(defvar quire-test-book-server nil)

(quire-test-step "connect" () 40
  (switch-to-buffer (find-file-noselect quire-test-chapter))
  (run-hooks 'post-command-hook)
  (setq quire-test-book-server (quire-test-wait "eglot to connect to quire" 30 #'eglot-current-server))
  (quire-test-wait "the initialize handshake" 30 (lambda () (eglot--server-capable :hoverProvider))))

(quire-test-step "hover" ("connect") 30
  (quire-test-goto "Ilse Dorn at" 2)
  (let ((card (quire-test-card "Ilse Dorn's card, from the series"
                               '("Series canon" "Harbor master of Tideward\\."))))
    (quire-test-log "  chapter hover: %s" (car (split-string (string-trim card) "\n")))))

(quire-test-step "definition" ("hover") 30
  ;; M-. as the writer types it: eglot's xref backend asks quire, xref
  ;; visits the one definition.
  (quire-test-goto "Ilse Dorn at" 2)
  (call-interactively #'xref-find-definitions)
  (run-hooks 'post-command-hook)
  (quire-test-wait "the series file in the selected window" 20
                   (lambda () (and buffer-file-name
                                   (equal (file-truename buffer-file-name)
                                          (file-truename quire-test-series-file)))))
  (unless (save-excursion (goto-char (point-min)) (search-forward "name: Ilse Dorn" nil t))
    (error "the buffer opened is not the series entry:\n%s" (buffer-string))))

(quire-test-step "one-quire" ("definition") 30
  ;; The series file is the book's: the book's quire manages it, and no
  ;; second quire runs for the series folder.
  (let ((server (quire-test-wait "eglot to manage the series file" 20 #'eglot-current-server)))
    (unless (eq server quire-test-book-server)
      (error "the series file went to a quire of its own, on %s" (project-root (eglot--project server)))))
  (let ((servers (quire-test-quire-servers)))
    (unless (= (length servers) 1)
      (error "%d quire servers run: %s" (length servers)
             (mapconcat (lambda (s) (project-root (eglot--project s))) servers ", "))))
  (when (string-match-p "found no book" (quire-test-messages))
    (error "the writer was told quire found no book")))

(quire-test-step "series-hover" ("one-quire") 40
  (quire-test-goto "[[Mara Vell]]" 4)
  (quire-test-card "the book's Mara Vell on the [[link]]"
                   '("Mara Vell" "Smuggler who never sails twice\\."))
  (quire-test-goto "# Ilse Dorn" 3)
  (let ((card (quire-test-card "Ilse Dorn's card on the heading"
                               '("Series canon" "Appears in:"))))
    (when (string-match-p "As of" card)
      (error "a series file is no chapter: %s" card))
    (quire-test-log "  series hover: %s" (car (split-string (string-trim card) "\n")))))

(defun quire-test-visit-series ()
  "Open the series file with C-x C-f; its buffer."
  (switch-to-buffer (find-file-noselect quire-test-series-file))
  (run-hooks 'post-command-hook)
  (current-buffer))

(quire-test-step "reopen" ("one-quire") 30
  ;; C-x C-f on a series file, before quire.el has heard from quire/status
  ;; which folder the book reads (forgotten here): it asks the running
  ;; quire, and the book's quire manages the file.
  (kill-buffer (find-buffer-visiting quire-test-series-file))
  (setq quire--series nil)
  (quire-test-visit-series)
  (let ((server (quire-test-wait "eglot to manage the series file" 20 #'eglot-current-server)))
    (unless (eq server quire-test-book-server)
      (error "the series file went to a quire of its own, on %s" (project-root (eglot--project server)))))
  (unless (= (length (quire-test-quire-servers)) 1)
    (error "%d quire servers run" (length (quire-test-quire-servers))))
  (quire-test-goto "# Ilse Dorn" 3)
  (quire-test-card "Ilse Dorn's card on the heading" '("Series canon")))

(quire-test-step "series-first" ("reopen") 60
  ;; The series file opened before any book of the series: no quire
  ;; starts for it (the series folder is no book). Once a chapter of the
  ;; book is open and its quire has read the series, the series file
  ;; already open goes to that quire.
  (with-current-buffer (jsonrpc-events-buffer quire-test-book-server)
    (write-region nil nil (concat quire-test-result ".events") nil 'silent))
  (eglot-shutdown quire-test-book-server)
  (setq quire-test-book-server nil)
  (dolist (f (list quire-test-series-file quire-test-chapter))
    (when-let ((b (find-buffer-visiting f))) (kill-buffer b)))
  (setq quire--series nil)
  (let ((series (quire-test-visit-series)))
    (accept-process-output nil 1)
    (when (or (quire-test-quire-servers) (buffer-local-value 'eglot--managed-mode series))
      (error "a quire started for the series file alone"))
    (switch-to-buffer (find-file-noselect quire-test-chapter))
    (run-hooks 'post-command-hook)
    (setq quire-test-book-server (quire-test-wait "eglot to connect to quire" 30 #'eglot-current-server))
    (quire-test-wait "the book's quire to manage the series file already open" 30
                     (lambda () (with-current-buffer series
                                  (and eglot--managed-mode (eq (eglot-current-server) quire-test-book-server)))))
    (switch-to-buffer series)
    (quire-test-goto "# Ilse Dorn" 3)
    (quire-test-card "Ilse Dorn's card on the heading" '("Series canon"))))

(quire-test-log (if quire-test-failed "FAIL" "PASS"))

(when quire-test-book-server
  (with-current-buffer (jsonrpc-events-buffer quire-test-book-server)
    (write-region nil nil (concat quire-test-result ".events") nil 'silent)))
(write-region (quire-test-messages) nil (concat quire-test-result ".messages") nil 'silent)
(dolist (s (quire-test-quire-servers))
  (ignore-errors (eglot-shutdown s)))
(kill-emacs (if quire-test-failed 1 0))
;;; series.el ends here
