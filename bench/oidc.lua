-- The whole OpenID Connect flow for a person already signed in, over and over: GET
-- /oidc/authorize (302 back with a code), POST /oidc/token (client_secret_basic, the code and
-- its PKCE verifier), GET /oidc/userinfo with the access token. Run with as many threads as
-- connections (-t64 -c64), so each wrk thread's Lua state is its connection's.
--   wrk -s oidc.lua URL -- SESSION_COOKIE CLIENT_SECRET
dofile(os.getenv("BENCH_DIR") .. "/report.lua")

local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

-- A fixed PKCE pair (challenge = base64url(SHA-256(verifier))): the server hashes the verifier at each exchange.
local verifier = "dBjftJeZ4CVP-mJ0kzDyHw3jSOdx4rmE5ZHHTwMB0h0"
local challenge = "kUF-_1zbc0A3hR97WmgxQj7DfeR5gEBxkKUCsdc3T5M"
local redirect = "https%3A%2F%2Fapp.example.com%2Fcallback"

function init(args)
  cookie = "session=" .. args[1]
  basic = args[2]
  step = "authorize"
  code, token = nil, nil
  flows, failed = 0, 0
end

function request()
  if step == "authorize" then
    return wrk.format("GET", "/oidc/authorize?client_id=bench&response_type=code&scope=openid%20phone&state=s"
      .. "&redirect_uri=" .. redirect .. "&code_challenge=" .. challenge .. "&code_challenge_method=S256",
      {["Cookie"] = cookie})
  elseif step == "token" then
    return wrk.format("POST", "/oidc/token", {
      ["Content-Type"] = "application/x-www-form-urlencoded",
      ["Authorization"] = "Basic " .. basic,
    }, "grant_type=authorization_code&code=" .. code .. "&redirect_uri=" .. redirect .. "&code_verifier=" .. verifier)
  end
  return wrk.format("GET", "/oidc/userinfo", {["Authorization"] = "Bearer " .. token})
end

function response(status, headers, body)
  if step == "authorize" then
    code = (headers["Location"] or ""):match("[?&]code=([^&]+)")
    if status == 302 and code then step = "token" else failed = failed + 1 end
  elseif step == "token" then
    token = body:match('"access_token":"([^"]+)"')
    if status == 200 and token then step = "userinfo" else failed = failed + 1; step = "authorize" end
  else
    if status == 200 and body:find('"phone_number"') then flows = flows + 1 else failed = failed + 1 end
    step = "authorize"
  end
end

function extra_report()
  local total, bad = 0, 0
  for _, thread in ipairs(threads) do
    total = total + thread:get("flows")
    bad = bad + thread:get("failed")
  end
  return string.format(', "flows": %d, "failed_steps": %d', total, bad)
end
