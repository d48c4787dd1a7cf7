import type Provider from 'oidc-provider';
import type { AppContext } from '../../app-context.ts';

const providers = new WeakMap<AppContext, Promise<Provider>>();

/** The authorization server of this context, built with the first OAuth request (oidc-provider loads only then). */
export function oauthProvider(ctx: AppContext): Promise<Provider> {
  let provider = providers.get(ctx);
  if (!provider) {
    provider = import('./oauth-provider.ts').then(({ createOAuthProvider }) => createOAuthProvider(ctx));
    providers.set(ctx, provider);
  }
  return provider;
}
