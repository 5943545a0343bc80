" :make runs `kcs run` on the current file; kcs reports FILE:LINE:COL: error: …
" For Markdown documents: :compiler kcs | setlocal makeprg=kcs\ check\ %:S
if exists('current_compiler')
  finish
endif
let current_compiler = 'kcs'
if exists(':CompilerSet') != 2
  command -nargs=* CompilerSet setlocal <args>
endif
CompilerSet makeprg=kcs\ run\ %:S
CompilerSet errorformat=%f:%l:%c:\ %trror:\ %m,%f:%l:%c:\ %tarning:\ %m,%f:%l:%c:\ note:\ %m,%-G%.%#
