;;; outline.el --- a chapter's scenes in Emacs's imenu, through eglot  -*- lexical-binding: t; -*-

;; Run by editors/emacs/outline_test.go:
;;   emacs --batch -l outline.el
;; with QUIRE_SETUP (editors/emacs/quire.el), QUIRE_BIN, QUIRE_CHAPTER
;; (a chapter of the sample book) and QUIRE_RESULT in the environment.
;; imenu, which eglot feeds from quire's document symbols, lists the
;; chapter and under it its scenes, each with its point of view and day:
;; what M-x imenu offers the writer. Writes "ok <step>", "item <name>"
;; and PASS or "FAIL <step>: <why>" to QUIRE_RESULT.

;;; Code:

(load (expand-file-name "harness.el" (file-name-directory load-file-name)) nil t)
(require 'imenu)

(defun quire-test-wait (what timeout pred)
  "Wait up to TIMEOUT seconds for PRED, running idle timers as the
command loop would; its value, or an error naming WHAT."
  (let* ((start (float-time)) (deadline (+ start timeout)) fired v)
    (while (and (not (setq v (funcall pred))) (< (float-time) deadline))
      (dolist (timer (copy-sequence timer-idle-list))
        (when (and (not (memq timer fired))
                   (>= (- (float-time) start) (float-time (timer--time timer))))
          (push timer fired)
          (timer-event-handler timer)))
      (accept-process-output nil 0.05))
    (or v (error "timed out after %ss waiting for %s" timeout what))))

(defun quire-test-names (index)
  "The names of an imenu INDEX, depth first, nested ones as PARENT/CHILD."
  (let (out)
    (dolist (item index)
      (cond
       ((imenu--subalist-p item)
        (push (car item) out)
        (dolist (child (quire-test-names (cdr item)))
          (push (concat (car item) "/" child) out)))
       (t (push (car item) out))))
    (nreverse out)))

(defvar quire-test-step "start")

(condition-case err
    (with-timeout (90 (error "did not finish within 90s"))
      (quire-test-log "%s, eglot %s" (emacs-version)
                      (package-version-join (package-desc-version (cadr (assq 'eglot package-alist)))))
      (setq quire-test-step "connect")
      (switch-to-buffer (find-file-noselect (getenv "QUIRE_CHAPTER")))
      (run-hooks 'post-command-hook)
      (quire-test-wait "eglot to connect to quire" 30 (lambda () (eglot-current-server)))
      (quire-test-wait "the initialize handshake" 30 (lambda () (eglot--server-capable :documentSymbolProvider)))
      (quire-test-log "ok connect")

      (setq quire-test-step "imenu")
      (let (names)
        (quire-test-wait "the chapter's scenes in imenu" 20
                         (lambda ()
                           (setq imenu--index-alist nil)
                           (setq names (quire-test-names (ignore-errors (imenu--make-index-alist t))))
                           (cl-some (lambda (n) (string-match-p "The Causeway at Dawn" n)) names)))
        (dolist (n names) (quire-test-log "item %s" n))
        (unless (cl-some (lambda (n) (string-match-p "The Night Count" n)) names)
          (error "imenu lacks the first scene: %S" names)))
      (quire-test-log "ok imenu")
      (quire-test-log "PASS")
      (let ((server (eglot-current-server)))
        (when server (ignore-errors (eglot-shutdown server))))
      (kill-emacs 0))
  (error
   (quire-test-log "FAIL %s: %s" quire-test-step (error-message-string err))
   (kill-emacs 1)))

;;; outline.el ends here
