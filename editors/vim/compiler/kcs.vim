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

" kcs counts a column in characters; Vim's %c is a byte index. After :make
" (and :lmake), each kcs entry's column becomes that character's byte index
" on its line, so :cfirst lands on the error after non-ASCII text too.
function! KcsQuickfixColumns(location) abort
  let l:list = a:location ? getloclist(0) : getqflist()
  let l:changed = 0
  for l:e in l:list
    if !l:e.valid || l:e.col <= 0 || l:e.vcol || l:e.bufnr <= 0
      continue
    endif
    if bufloaded(l:e.bufnr)
      let l:lines = getbufline(l:e.bufnr, l:e.lnum)
    else
      let l:all = filereadable(bufname(l:e.bufnr)) ? readfile(bufname(l:e.bufnr), '', l:e.lnum) : []
      let l:lines = len(l:all) >= l:e.lnum ? l:all[-1:] : []
    endif
    if empty(l:lines)
      continue
    endif
    let l:byte = byteidxcomp(l:lines[0], l:e.col - 1)
    if l:byte >= 0 && l:byte + 1 != l:e.col
      let l:e.col = l:byte + 1
      let l:changed = 1
    endif
  endfor
  if l:changed
    if a:location | call setloclist(0, l:list, 'r') | else | call setqflist(l:list, 'r') | endif
  endif
endfunction
augroup kcs_compiler
  autocmd!
  autocmd QuickFixCmdPost make if &l:makeprg =~# '\<kcs\>' | call KcsQuickfixColumns(0) | endif
  autocmd QuickFixCmdPost lmake if &l:makeprg =~# '\<kcs\>' | call KcsQuickfixColumns(1) | endif
augroup END
