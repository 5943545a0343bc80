-- End-to-end test of `kcs lsp` with Neovim's built-in LSP client (0.7+).
-- Run: KCS=/path/to/kcs nvim --headless --clean -u NONE -l? (see NeovimTests.swift)
--   nvim --headless --clean -u NONE -c "luafile neovim-lsp.lua" FILE.kcs
-- Prints "ok: …" per check and "LSP TEST PASSED" at the end; exits 1 on the
-- first failure, with what was expected and what came.
local kcs = os.getenv("KCS")
local function fail(msg)
  io.stderr:write("FAIL: " .. msg .. "\n")
  vim.cmd("cquit 1")
end
local function ok(msg) io.stdout:write("ok: " .. msg .. "\n") end

local buf = vim.api.nvim_get_current_buf()
local client_id = vim.lsp.start_client({
  name = "kcs",
  cmd = { kcs, "lsp" },
  root_dir = vim.fn.getcwd(),
})
if not client_id then fail("the server did not start") end
vim.lsp.buf_attach_client(buf, client_id)

-- Diagnostics: the file has one failed expectation at line 8 (0-based 7).
local got = vim.wait(10000, function() return #vim.diagnostic.get(buf) > 0 end, 50)
if not got then fail("no diagnostics within 10 s") end
local d = vim.diagnostic.get(buf)[1]
if d.lnum ~= 7 or not d.message:find("errSecItemNotFound", 1, true) then
  fail("diagnostic: got line " .. d.lnum .. ": " .. d.message)
end
ok("diagnostics: " .. d.message:gsub("\n.*", ""))

local function request(method, params)
  local results = vim.lsp.buf_request_sync(buf, method, params, 10000)
  if not results or not results[client_id] then fail(method .. ": no answer") end
  if results[client_id].err then fail(method .. ": " .. vim.inspect(results[client_id].err)) end
  return results[client_id].result
end
local function at(line, character)
  return { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = line, character = character } }
end

-- Completion after "as " offers the document's apps.
local items = request("textDocument/completion", at(6, 3))
local labels = {}
for _, item in ipairs(items.items or items) do labels[item.label] = true end
if not (labels["AppOne"] and labels["AppTwo"]) then fail("completion: " .. vim.inspect(labels)) end
ok("completion offers AppOne and AppTwo")

-- Hover on the find's app name shows its access groups.
local hover = request("textDocument/hover", at(6, 4))
local text = hover.contents.value or ""
if not text:find("SKMME9E2Y8.com.example.Shared", 1, true) then fail("hover: " .. text) end
ok("hover shows AppTwo's groups")

-- Formatting: the messy first line becomes canonical.
local edits = request("textDocument/formatting", { textDocument = { uri = vim.uri_from_bufnr(buf) },
  options = { tabSize = 4, insertSpaces = true } })
if not edits or #edits ~= 1 then fail("formatting: " .. vim.inspect(edits)) end
vim.lsp.util.apply_text_edits(edits, buf, "utf-16")
local first = vim.api.nvim_buf_get_lines(buf, 0, 1, false)[1]
if first ~= "team SKMME9E2Y8" then fail("formatting: first line is '" .. first .. "'") end
ok("formatting gives the canonical layout")

vim.lsp.stop_client(client_id)
io.stdout:write("LSP TEST PASSED\n")
vim.cmd("qall!")
