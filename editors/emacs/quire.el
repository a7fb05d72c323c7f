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

(defun quire-project-find (dir)
  "A project.el project for the book holding DIR, or nil."
  (when-let ((root (quire--book-for dir)))
    (cons 'transient root)))

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

(defun quire-maybe-start ()
  "Start eglot for a file inside a book or an answer document, and only
there: other text files are left alone."
  (when (and buffer-file-name (quire--book-for default-directory))
    (eglot-ensure)))

(add-hook 'text-mode-hook #'quire-maybe-start)

(provide 'quire)
;;; quire.el ends here
