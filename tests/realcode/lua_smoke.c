// Smoke test of Lua 5.4 built by accc: a script with closures, coroutines,
// metatables, string patterns and formatting, table.sort with a comparator,
// integer and float arithmetic, goto, pcall/error, string.pack and utf8;
// then C reads a table the script made, a compute region scales it, and Lua
// sums the result for a check. Prints deterministic text only.
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <math.h>
#include <stdio.h>

static const char *script =
    "local out = {}\n"
    "local function emit(...)\n"
    "  local t = table.pack(...)\n"
    "  for i = 1, t.n do t[i] = tostring(t[i]) end\n"
    "  out[#out + 1] = table.concat(t, ' ', 1, t.n)\n"
    "end\n"
    "local function fib(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end\n"
    "emit('fib', fib(20), 2^53 // 3, 7 // 2, -7 // 2, 7 % -3, 1 / 4, math.maxinteger + 1 == math.mininteger)\n"
    "local function counter() local c = 0 return function(k) c = c + (k or 1) return c end end\n"
    "local c1, c2 = counter(), counter()\n"
    "c1() c1(5) c2(2)\n"
    "emit('closures', c1(), c2())\n"
    "local gen = coroutine.wrap(function() for i = 1, 4 do coroutine.yield(i * i) end end)\n"
    "emit('coroutine', gen(), gen(), gen(), gen())\n"
    "local V = {}\n"
    "V.__index = V\n"
    "V.__add = function(a, b) return setmetatable({x = a.x + b.x, y = a.y + b.y}, V) end\n"
    "V.__tostring = function(v) return string.format('(%g, %g)', v.x, v.y) end\n"
    "local v = setmetatable({x = 1, y = 2}, V) + setmetatable({x = 0.5, y = -4}, V)\n"
    "emit('metatable', tostring(v))\n"
    "local words = {}\n"
    "for w in ('the quick brown fox jumps over the lazy dog'):gmatch('%a+') do words[#words + 1] = w end\n"
    "table.sort(words, function(a, b) if #a ~= #b then return #a > #b end return a < b end)\n"
    "emit('sorted', table.concat(words, ','))\n"
    "emit('gsub', (('hello world'):gsub('o', '0')), ('%5.2f|%-4d|%x|%q'):format(math.pi, 42, 255, 'a\\nb'))\n"
    "local n = 0\n"
    "::again:: n = n + 1 if n < 10 then goto again end\n"
    "emit('goto', n)\n"
    "local ok, msg = pcall(function() error({code = 7}) end)\n"
    "emit('pcall', ok, msg.code, select('#', pcall(error)))\n"
    "emit('pack', #string.pack('i4i8d', 1, 2, 3.5), string.unpack('<i2', '\\1\\2'))\n"
    "emit('utf8', utf8.char(72, 228, 8364, 128512), utf8.len('h\\u{E4}\\u{20AC}'))\n"
    "data = {}\n"
    "for i = 1, 100 do data[i] = (i * 37 % 101) / 4 end\n"
    "function total(t) local s = 0 for _, x in ipairs(t) do s = s + x end return s end\n"
    "return table.concat(out, '\\n')\n";

int main(void)
{
    lua_State *L = luaL_newstate();
    luaL_openlibs(L);
    if (luaL_dostring(L, script) != LUA_OK) {
        printf("error: %s\n", lua_tostring(L, -1));
        return 1;
    }
    printf("%s\n", lua_tostring(L, -1));
    lua_pop(L, 1);

    // Read the script's table, scale it in a compute region, sum it in Lua.
    enum { N = 100 };
    static double x[N], y[N];
    lua_getglobal(L, "data");
    for (int i = 0; i < N; i++) {
        lua_rawgeti(L, -1, i + 1);
        x[i] = lua_tonumber(L, -1);
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
#pragma acc parallel loop copyin(x) copyout(y)
    for (int i = 0; i < N; i++)
        y[i] = 2 * x[i] + i;
    lua_getglobal(L, "total");
    lua_createtable(L, N, 0);
    for (int i = 0; i < N; i++) {
        lua_pushnumber(L, y[i]);
        lua_rawseti(L, -2, i + 1);
    }
    lua_call(L, 1, 1);
    double got = lua_tonumber(L, -1);
    double want = 0;
    for (int i = 0; i < N; i++)
        want += 2 * x[i] + i;
    printf("total %.6e\n", got);
    lua_close(L);
    printf("%s\n", fabs(got - want) <= 1e-9 * fabs(want) ? "PASS" : "FAIL");
    return 0;
}
