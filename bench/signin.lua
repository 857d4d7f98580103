-- Full sign-ins through the pages: POST /login with a new number, then POST /verify with the
-- code, over and over. Run with as many threads as connections (-t64 -c64), so each wrk
-- thread drives exactly one connection and its Lua state is that connection's state.
-- Needs the server in SMS test mode (every code is 123456) and a CSRF token (cookie and form
-- field) fetched beforehand: wrk -s signin.lua URL -- TOKEN [OFFSET]
-- Every sign-in comes from 127.0.0.1 (test mode refuses proxied requests), so the server runs
-- with the per-client limits raised (bench/run).
dofile(os.getenv("BENCH_DIR") .. "/report.lua")

local threads = {}
local counter = 0

function setup(thread)
  counter = counter + 1
  thread:set("id", counter)
  table.insert(threads, thread)
end

function init(args)
  token = args[1]
  -- Another wrk loading another instance at once passes an offset, so no two threads share numbers.
  offset = tonumber(args[2] or "0")
  step = "login"
  n = 0
  session = nil
  signed_in = 0
  failed = 0
end

local function phone()
  -- A valid NANP number no other thread uses: exchange 221-284 from the thread id (clear of
  -- the N11 exchange 211), line from a counter.
  return string.format("530%03d%04d", 220 + offset + id, n % 10000)
end

function request()
  if step == "login" then
    n = n + 1
    return wrk.format("POST", "/login", {
      ["Content-Type"] = "application/x-www-form-urlencoded",
      ["Cookie"] = "csrf=" .. token,
    }, "csrf=" .. token .. "&phone=" .. phone())
  end
  return wrk.format("POST", "/verify", {
    ["Content-Type"] = "application/x-www-form-urlencoded",
    ["Cookie"] = "csrf=" .. token .. "; session=" .. (session or ""),
  }, "csrf=" .. token .. "&code=123456")
end

function response(status, headers, body)
  if step == "login" then
    local cookie = headers["Set-Cookie"] or ""
    session = cookie:match("session=([^;]+)")
    if status == 303 and session then step = "verify" else failed = failed + 1 end
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
