" kcs keychain scenarios: *.kcs files.
autocmd BufRead,BufNewFile *.kcs setfiletype kcs
