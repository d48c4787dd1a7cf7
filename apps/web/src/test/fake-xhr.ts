/** A stand-in for XMLHttpRequest that records what was sent and answers with `FakeXhr.answer`. */
export class FakeXhr {
  static sent: FakeXhr[] = [];
  static answers: Array<{ status: number; body: unknown }> = [];

  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: unknown = null;
  status = 0;
  responseText = '';
  upload: {
    onprogress: ((event: { lengthComputable: boolean; loaded: number; total: number }) => void) | null;
  } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;

  static reset(...answers: Array<{ status: number; body: unknown }>) {
    FakeXhr.sent = [];
    FakeXhr.answers = answers;
  }

  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }

  setRequestHeader(name: string, value: string) {
    this.headers[name.toLowerCase()] = value;
  }

  send(body: unknown) {
    this.body = body;
    FakeXhr.sent.push(this);
    const answer = FakeXhr.answers.shift() ?? { status: 500, body: null };
    setTimeout(() => {
      this.upload.onprogress?.({ lengthComputable: true, loaded: 1, total: 2 });
      this.status = answer.status;
      this.responseText = answer.body === null ? '' : JSON.stringify(answer.body);
      this.onload?.();
    }, 5);
  }

  abort() {
    this.onabort?.();
  }
}
