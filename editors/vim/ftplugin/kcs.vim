" kcs keychain scenarios: comments, and :make running `kcs run` on the file.
if exists('b:did_ftplugin')
  finish
endif
let b:did_ftplugin = 1
setlocal commentstring=#\ %s comments=:#
compiler kcs
let b:undo_ftplugin = 'setlocal commentstring< comments< makeprg< errorformat<'
