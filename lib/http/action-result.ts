// What every server action returns to the component that called it (lib/http/action.ts makes every action). Its own
// module, free of server code, so client components can import the type.
export type ActionFailure = { ok: false; error: string; fieldErrors?: Record<string, string> };
export type ActionResult<T = undefined> = { ok: true; data: T } | ActionFailure;
