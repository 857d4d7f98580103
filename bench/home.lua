-- GET /home for a signed-in person, over and over (bench/oidc-flow's comparison).
--   wrk -s home.lua URL -- SESSION_COOKIE
dofile(os.getenv("BENCH_DIR") .. "/report.lua")

function init(args)
  cookie = "session=" .. args[1]
end

function request()
  return wrk.format("GET", "/home", {["Cookie"] = cookie})
end
