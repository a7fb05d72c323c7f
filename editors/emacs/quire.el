;;; quire.el --- Run quire, the language server for novelists, with eglot  -*- lexical-binding: t; -*-

;; Load this file from your init file, after `package-initialize' (on
;; Debian, eglot comes from the elpa-eglot package):
;;
;;   (load "/path/to/quire/editors/emacs/quire.el")
;;   (setq quire-initialization-options
;;         '(:provider (:base_url "http://localhost:11434/v1" :model "llama3.1")))
;;
;; Opening any Markdown or text file inside a book then starts `quire
;; serve' for the whole book, with or without version control.

;;; Code:

(require 'eglot)
(require 'project)
(require 'cl-lib)
(require 'subr-x)

(defgroup quire nil
  "The quire language server for novelists, through eglot."
  :group 'eglot)

(defcustom quire-program "quire"
  "The quire binary: a name found on `exec-path' or an absolute file name."
  :type 'string)

(defcustom quire-initialization-options nil
  "Settings sent to quire when it starts, as a plist.
They win over the book's quire.yaml, for example
  (:provider (:base_url \"http://localhost:11434/v1\" :model \"llama3.1\"
              :api_key_env \"OPENAI_API_KEY\"))
An API key itself is never a setting: name the variable that holds it."
  :type 'sexp)

(defun quire-book-root (dir)
  "The book folder holding DIR, or nil.
A book is a folder with quire.yaml, or with both codex/ and manuscript/;
quire looks for it the same way."
  (when-let ((root (locate-dominating-file
                    dir
                    (lambda (d)
                      (or (file-exists-p (expand-file-name "quire.yaml" d))
                          (and (file-directory-p (expand-file-name "codex" d))
                               (file-directory-p (expand-file-name "manuscript" d))))))))
    (file-name-as-directory (expand-file-name root))))

;; project.el takes the version-control root as the project, and without
;; version control eglot falls back to the file's own folder, so a chapter
;; opened from manuscript/ would start quire on manuscript/ alone. The book
;; folder is the project instead, whether or not it is under git.
;;
;; An answer document (quire writes them to its cache folder, never into
;; the book) belongs to the book that was asked, so that its "Apply
;; proposal" actions reach the quire that made the proposals.
(defvar quire--last-book nil
  "The book folder of the writer's last quire command.")

(defun quire--answers-dir-p (dir)
  "Whether DIR is quire's folder of answer documents."
  (string-match-p "/quire/answers/?\\'" (expand-file-name dir)))

(defun quire--book-for (dir)
  "The book a buffer in DIR belongs to, or nil."
  (or (quire-book-root dir)
      (and (quire--answers-dir-p dir) quire--last-book)))

;; A series folder (a book's quire.yaml names it: `series: ../tideward')
;; is no book, though it holds a codex/ like one. Go to definition of a
;; series name opens a file there, and the quire of a book that reads
;; the series answers in it from that book's canon. So, for eglot, a
;; file of the series folder of an open book belongs to that book's
;; project, and thus to its quire; other uses of project.el (C-x p f)
;; still see the series folder as what it is.
(defvar quire--series nil
  "Alist of (SERIES-FOLDER SERVER . BOOK-ROOT): a series folder, by
its real path with a trailing slash as quire/status names it, and the
eglot server of the book BOOK-ROOT that reads it. The first book to
name a folder keeps it while its server runs, as quire, given several
books of a series, answers from the first.")

(defun quire--note-series (server root series)
  "Follow the SERIES folder that the book ROOT of SERVER reads."
  (let ((folder (and (stringp series) (not (string-empty-p series))
                     (file-name-as-directory series))))
    ;; The book's earlier series, and books whose server has stopped,
    ;; are let go of.
    (setq quire--series
          (cl-remove-if (lambda (e)
                          (or (not (jsonrpc-running-p (cadr e)))
                              (and (eq (cadr e) server) (equal (cddr e) root)
                                   (not (equal (car e) folder)))))
                        quire--series))
    (when (and folder (not (assoc folder quire--series)))
      (push (cons folder (cons server root)) quire--series)
      (quire--adopt-series-buffers folder))))

(cl-defmethod eglot-handle-notification
  (server (_method (eql quire/status)) &key root series &allow-other-keys)
  "Handle quire/status: note the series folder the book reads."
  (quire--note-series server root series))

(defun quire--series-server (dir)
  "The running eglot server of a book whose series folder holds DIR."
  (let ((real (file-name-as-directory (file-truename dir))))
    (cl-loop for (folder server . _) in quire--series
             when (and (string-prefix-p folder real) (jsonrpc-running-p server))
             return server)))

(defvar quire--asking nil
  "The quire servers asked for their books' series, not answered yet.")

(defun quire--ask-series ()
  "Ask each running quire which series folders its books read: its
quire/status notifications may not have come yet (go to definition
right after the book loaded). The answers come later: a file of a
series found that way is handed to the book's quire then
(`quire--adopt-series-buffers'). Never a synchronous request: eglot
looks for a buffer's project while it reads the server's messages, and
waiting for an answer there loses the messages that come meanwhile."
  (dolist (server (quire--servers))
    (unless (memq server quire--asking)
      (push server quire--asking)
      (let ((done (lambda (&rest _) (setq quire--asking (delq server quire--asking)))))
        (jsonrpc-async-request
         server :quire/status (make-hash-table)
         :success-fn (lambda (result)
                       (funcall done)
                       (mapc (lambda (b) (quire--note-series server (plist-get b :root) (plist-get b :series)))
                             (plist-get result :books)))
         :error-fn done :timeout-fn done :timeout 10)))))

(defun quire--servers ()
  "The running eglot servers started with `quire--contact'."
  (let (all)
    (maphash (lambda (_ servers)
               (dolist (s servers)
                 (when (and (jsonrpc-running-p s) (quire--server-p s))
                   (push s all))))
             eglot--servers-by-project)
    (delete-dups all)))

(defun quire--server-p (server)
  "Whether SERVER runs `quire-program'."
  (let ((cmd (process-command (jsonrpc--process server))))
    (and cmd (equal (file-name-nondirectory (car cmd)) (file-name-nondirectory quire-program)))))

(defun quire--series-for (dir)
  "The eglot server that answers for DIR as a series folder, or nil.
When none is known and DIR looks like a series (a codex/ above it),
the running quires are asked, for the answer to take the file over."
  (or (quire--series-server dir)
      (progn (when (locate-dominating-file dir "codex")
               (quire--ask-series))
             nil)))

(defun quire--adopt-series-buffers (folder)
  "Hand the open files of FOLDER, a series folder just learnt of, to
the book's quire, as if they were opened now."
  (dolist (buf (buffer-list))
    (with-current-buffer buf
      (when (and buffer-file-name (not eglot--managed-mode)
                 (derived-mode-p 'text-mode)
                 (string-prefix-p folder (file-truename buffer-file-name)))
        (eglot--maybe-activate-editing-mode)))))

(defun quire-project-find (dir)
  "A project.el project for the book holding DIR, or nil. For eglot, a
folder of an open book's series belongs to that book's project."
  (if-let ((root (quire--book-for dir)))
      (cons 'transient root)
    (when-let ((server (and (bound-and-true-p eglot-lsp-context)
                            (quire--series-for dir))))
      (eglot--project server))))

(add-hook 'project-find-functions #'quire-project-find)

(defun quire--note-book (&rest _)
  "Remember the book of the current buffer, where a command runs."
  (when-let ((root (quire-book-root default-directory)))
    (setq quire--last-book root)))

(advice-add 'eglot-execute-command :before #'quire--note-book)

(defun quire--contact (_interactive)
  "How eglot starts quire: read when the server starts, so settings
made after loading this file count."
  (append (list quire-program "serve")
          (when quire-initialization-options
            (list :initializationOptions quire-initialization-options))))

;; text-mode covers Markdown files where markdown-mode is not installed
;; (Emacs 28 opens .md files in text-mode only when told to, see below).
(add-to-list 'eglot-server-programs
             '((markdown-mode gfm-mode text-mode) . quire--contact))

(unless (fboundp 'markdown-mode)
  (add-to-list 'auto-mode-alist '("\\.\\(?:md\\|markdown\\)\\'" . text-mode)))

(defcustom quire-open-function nil
  "How `quire-build' with a prefix argument opens the file it built.
nil hands it to the system: xdg-open (there must be a display: DISPLAY
or WAYLAND_DISPLAY), open on macOS, the file's program on Windows. A
function of the file name, returning non-nil when it opened it,
replaces that."
  :type '(choice (const :tag "The system's viewer" nil) function))

(defvar quire-last-build nil
  "The file the last `quire-build' wrote.")

(defun quire--thousands (n)
  "N with its thousands grouped, as quire writes counts: 121,804."
  (let ((s (number-to-string (abs n))))
    (while (string-match "\\([0-9]\\)\\([0-9]\\{3\\}\\)\\(,\\|\\'\\)" s)
      (setq s (replace-match "\\1,\\2\\3" t nil s)))
    (concat (if (< n 0) "-" "") s)))

(defun quire--no-display ()
  "Why nothing can be shown on this computer's desktop, or nil: on
GNU/Linux and the BSDs, neither DISPLAY nor WAYLAND_DISPLAY is set (over
SSH, in a text console)."
  (when (and (memq system-type '(gnu/linux gnu/kfreebsd berkeley-unix))
             (string-empty-p (or (getenv "DISPLAY") ""))
             (string-empty-p (or (getenv "WAYLAND_DISPLAY") "")))
    "there is no display to open it on (neither DISPLAY nor WAYLAND_DISPLAY is set, as over SSH or in a text console)"))

(defun quire-open-file (file)
  "Open FILE with `quire-open-function' or the system's viewer.
Return nil when it did, else why not, for the writer to read."
  (cond
   (quire-open-function
    (unless (funcall quire-open-function file)
      "quire-open-function did not open it"))
   ((eq system-type 'windows-nt)
    (condition-case err (progn (w32-shell-execute "open" file) nil)
      (error (error-message-string err))))
   ((quire--no-display))
   (t (let ((opener (if (eq system-type 'darwin) "open" "xdg-open")))
        (if (not (executable-find opener))
            (format "%s is not installed" opener)
          (condition-case err (progn (call-process opener nil 0 nil file) nil)
            (error (error-message-string err))))))))

(defun quire--built (result open)
  "Tell the writer what quire.build wrote (RESULT), the file last; with
OPEN, open it too."
  (let ((file (plist-get result :path)))
    (setq quire-last-build file)
    (mapc (lambda (w) (message "quire: warning: %s" w)) (plist-get result :warnings))
    (message "quire built %s (%s, %s chapter%s, %s words as built: the prose, without chapter titles and scene headings): %s"
             (upcase (or (plist-get result :format) "")) (or (plist-get result :preset) "")
             (quire--thousands (or (plist-get result :chapters) 0))
             (if (eql (plist-get result :chapters) 1) "" "s")
             (quire--thousands (or (plist-get result :words) 0)) file)
    (when open
      (if-let ((why (quire-open-file file)))
          (message "quire could not open the file: %s. Open it yourself: %s" why file)
        (message "quire opened %s" file)))))

(defun quire-build (format &optional open)
  "Build the manuscript of this buffer's book into one FORMAT file:
docx (the standard manuscript), epub, md or html. The echo area names
the file, last; with a prefix argument (OPEN) the file is opened too.
It goes where `quire build' puts it: build: output, else
~/Documents/quire/<book folder>, else quire's cache folder."
  (interactive (list (completing-read "Build (docx, epub, md, html): " '("docx" "epub" "md" "html") nil t nil nil "docx")
                     current-prefix-arg))
  (let ((server (or (eglot-current-server) (user-error "quire is not running for this buffer")))
        (args (list :format format :quiet t)))
    (when buffer-file-name
      (setq args (plist-put args :uri (eglot--path-to-uri buffer-file-name))))
    (quire--note-book)
    (message "quire: building the %s…" (upcase format))
    (jsonrpc-async-request
     server :workspace/executeCommand (list :command "quire.build" :arguments (vector args))
     :success-fn (lambda (result)
                   ;; A failure answers null: the server said why.
                   (when (plist-get result :path)
                     (quire--built result open)))
     :error-fn (lambda (err) (message "quire could not build the manuscript: %s" (plist-get err :message)))
     :timeout 120)))

(defun quire-reveal-build ()
  "Show the file the last `quire-build' wrote in its folder, in Dired."
  (interactive)
  (unless (and quire-last-build (file-exists-p quire-last-build))
    (user-error "quire has built nothing yet in this Emacs: M-x quire-build"))
  (dired-jump nil quire-last-build))

(defun quire-maybe-start ()
  "Start eglot for a file inside a book or an answer document, and only
there: other text files are left alone."
  (when (and buffer-file-name (quire--book-for default-directory))
    (eglot-ensure)))

(add-hook 'text-mode-hook #'quire-maybe-start)

(provide 'quire)
;;; quire.el ends here
