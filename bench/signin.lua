-- Full sign-ins through the pages: POST /login with a new number, then POST /verify with the
-- code, over and over. Run with as many threads as connections (-t64 -c64), so each wrk
-- thread drives exactly one connection and its Lua state is that connection's state.
--   wrk -s signin.lua URL -- TOKEN [OFFSET [OUTBOX]]
-- TOKEN is a CSRF token (cookie and form field) fetched beforehand. OFFSET (0 unless given)
-- keeps the numbers of another wrk loading another instance at once apart from these.
--
-- With OUTBOX (the server's outbox file; the server runs `--sms outbox --trust-proxy`), each
-- sign-in is what a real one is: its own person (a number no one else uses, spread over many
-- exchanges as real numbers are) from its own network (an X-Forwarded-For of its own, as a
-- reverse proxy sends), and the code is read from the text in the outbox. Only the spend budget
-- needs raising then (1,000 sign-ins a second are 3.6 million texts an hour); every other
-- limit keeps its default. Without OUTBOX the server runs in SMS test mode (every code
-- 123456), where every sign-in comes from 127.0.0.1 and the per-client limits must be raised.
dofile(os.getenv("BENCH_DIR") .. "/report.lua")

local threads = {}
local counter = 0

function setup(thread)
  counter = counter + 1
  thread:set("id", counter)
  table.insert(threads, thread)
end

-- Exchanges 200-999 of four California area codes, without the N11 codes (211 … 911) and 555.
local exchanges = {}
for _, area in ipairs({"530", "707", "916", "209"}) do
  for exchange = 200, 999 do
    if exchange % 100 ~= 11 and exchange ~= 555 then
      table.insert(exchanges, area .. string.format("%03d", exchange))
    end
  end
end

function init(args)
  token = args[1]
  offset = tonumber(args[2] or "0")
  outbox = args[3]
  step = "login"
  -- Each run starts its numbers 64 sign-ins a second on, so a warm-up and the run after it on the
  -- same server (the same offset) never reuse a number while each thread makes fewer than 64 a
  -- second (64 threads: 4,096 sign-ins a second; past that, pass the run another offset).
  n = (os.time() * 64) % 100000
  session = nil
  code = "123456"
  signed_in = 0
  failed = 0
end

-- This thread's n-th sign-in, numbered apart from every other thread's (up to 256 threads).
local function unique()
  return n * 256 + offset + id
end

local function phone()
  local u = unique()
  return exchanges[u % #exchanges + 1] .. string.format("%04d", math.floor(u / #exchanges) % 10000)
end

local function client()
  local u = unique()
  return string.format("10.%d.%d.%d", math.floor(u / 65536) % 256, math.floor(u / 256) % 256, u % 256)
end

-- The code of the newest text to "+1" .. number in the outbox's last `size` bytes, or nil.
-- The load generator shares the server's two cores, so this reads little: the text is among
-- the last few lines (each about 190 bytes), and it is found by a plain search, not line by line.
local function code_in_tail(number, size)
  local file = io.open(outbox, "rb")
  if not file then return nil end
  local length = file:seek("end")
  file:seek("set", math.max(0, length - size))
  local tail = file:read("*a") or ""
  file:close()
  local to = '"to":"+1' .. number .. '"'
  local at = tail:find(to, 1, true)
  if not at then return nil end
  -- The newest text to the number (a run gives each sign-in its own, so this rarely loops).
  while true do
    local later = tail:find(to, at + 1, true)
    if not later then break end
    at = later
  end
  -- The line's own body: the last one before its "to" (the line starts at most 300 bytes back).
  return tail:sub(math.max(1, at - 300), at):match('.*"body":"%D*(%d%d%d%d%d%d)')
end

local function headers(cookie)
  local list = {
    ["Content-Type"] = "application/x-www-form-urlencoded",
    ["Cookie"] = cookie,
  }
  if outbox then list["X-Forwarded-For"] = client() end
  return list
end

function request()
  if step == "login" then
    n = n + 1
    return wrk.format("POST", "/login", headers("csrf=" .. token), "csrf=" .. token .. "&phone=" .. phone())
  end
  return wrk.format("POST", "/verify", headers("csrf=" .. token .. "; session=" .. (session or "")),
    "csrf=" .. token .. "&code=" .. code)
end

function response(status, headers, body)
  if step == "login" then
    local cookie = headers["Set-Cookie"] or ""
    session = cookie:match("session=([^;]+)")
    if status == 303 and session then
      step = "verify"
      if outbox then
        -- The text is in the outbox before the page answers, among the 64 threads' newest lines
        -- (about 12 KB); a longer tail is read only if not.
        code = code_in_tail(phone(), 4096) or code_in_tail(phone(), 16384) or code_in_tail(phone(), math.huge)
          or "000000"
      end
    else
      failed = failed + 1
    end
  else
    if status == 303 and headers["Location"] == "/home" then signed_in = signed_in + 1 else failed = failed + 1 end
    step = "login"
  end
end

function extra_report()
  local total, bad = 0, 0
  for _, thread in ipairs(threads) do
    total = total + thread:get("signed_in")
    bad = bad + thread:get("failed")
  end
  return string.format(', "signins": %d, "failed_steps": %d', total, bad)
end
