;;; harness.el --- what the Emacs test scripts share  -*- lexical-binding: t; -*-

;; Loaded first by slips.el, series.el and outline.el, run in a batch
;; Emacs by their Go tests (editors/emacs/emacs_run_test.go) with
;; QUIRE_SETUP (editors/emacs/quire.el), QUIRE_BIN and QUIRE_RESULT in the
;; environment: the packages, the result file the script writes its
;; steps to (quire-test-log), and quire set up as a writer has it.

;;; Code:

(require 'package)
(package-initialize)
(require 'cl-lib)
(require 'subr-x)

(defvar quire-test-result (getenv "QUIRE_RESULT"))
(write-region "" nil quire-test-result nil 'silent)

(defun quire-test-log (fmt &rest args)
  (write-region (concat (apply #'format fmt args) "\n") nil quire-test-result 'append 'silent))

(load (getenv "QUIRE_SETUP") nil t)
(setq quire-program (getenv "QUIRE_BIN"))
(setq jsonrpc-default-request-timeout 30)
(setq eglot-connect-timeout 30)
(setq eglot-events-buffer-size 2000000)

;;; harness.el ends here
