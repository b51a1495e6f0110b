// reCAPTCHA v3 for registration, only when a site key is configured: loads Google's script
// once and asks it for a token for the 'register' action, which the server checks with auth/newuser.
interface Grecaptcha {
  ready(callback: () => void): void;
  execute(siteKey: string, options: { action: string }): Promise<string>;
}

declare global {
  interface Window {
    grecaptcha?: Grecaptcha;
  }
}

const scriptId = 'recaptcha-script';

function loadScript(siteKey: string): Promise<Grecaptcha> {
  return new Promise((resolve, reject) => {
    if (window.grecaptcha) {
      resolve(window.grecaptcha);
      return;
    }
    let script = document.getElementById(scriptId) as HTMLScriptElement | null;
    if (!script) {
      script = document.createElement('script');
      script.id = scriptId;
      script.src = `https://www.google.com/recaptcha/api.js?render=${encodeURIComponent(siteKey)}`;
      script.async = true;
      document.head.appendChild(script);
    }
    script.addEventListener('load', () =>
      window.grecaptcha ? resolve(window.grecaptcha) : reject(new Error('reCAPTCHA did not load')),
    );
    script.addEventListener('error', () => reject(new Error('reCAPTCHA could not be loaded')));
  });
}

export async function getRecaptchaToken(siteKey: string): Promise<string> {
  const grecaptcha = await loadScript(siteKey);
  await new Promise<void>((resolve) => grecaptcha.ready(resolve));
  return grecaptcha.execute(siteKey, { action: 'register' });
}
